// The sections of the banner settings form, in the order the form shows them: each has a title (the
// section index and the save bar name it), a sentence on what it holds, and an element id so the
// index, the save bar and links from other screens can jump to it.

export const settingsSections = [
  {
    id: 'appearance',
    title: 'Appearance',
    description: 'Where the banner sits on the page, its colours and the privacy policy it links to.',
  },
  {
    id: 'purposes',
    title: 'Purposes & services',
    description: 'What the banner asks visitors to allow, and the services and cookies it lists under each purpose.',
  },
  {
    id: 'languages',
    title: 'Languages & texts',
    description: "The banner's language for visitors whose languages it does not speak, and your own wording of its texts.",
  },
  {
    id: 'regions',
    title: 'Regions',
    description: 'Whether visitors are asked first (opt-in), may opt out, or are only informed, by where they are.',
  },
  {
    id: 'lifetime',
    title: 'Consent lifetime',
    description: "How long a visitor's choice stands, what asks everyone again, and how long consent data is kept.",
  },
  {
    id: 'identification',
    title: 'Identification',
    description: 'What is stored that could identify a visitor, and Lead identification of the visitors who allow it.',
  },
] as const;

export type SettingsSectionId = (typeof settingsSections)[number]['id'];

export const settingsSectionTitles = Object.fromEntries(settingsSections.map((section) => [section.id, section.title])) as Record<
  SettingsSectionId,
  string
>;

/** The id of a section's element: `#settings-regions` scrolls to it. */
export function getSettingsSectionElementId(section: SettingsSectionId): string {
  return `settings-${section}`;
}

/** `Appearance`, `Appearance and Regions`, `Appearance, Regions and Identification`. */
export function formatSectionList(sections: readonly SettingsSectionId[]): string {
  const titles = sections.map((section) => settingsSectionTitles[section]);
  if (titles.length <= 1) return titles.join('');
  return `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
}
