// Takes the owner to a field the save bar names: scrolls it to the middle of the screen and focuses
// it. A field may not exist yet (a banner text of another language appears once the editor switched
// and our texts loaded): then it waits for it a while, and meanwhile shows its section.
import { getSettingsSectionElementId, type SettingsSectionId } from './settings-sections';

/** How long to wait for a field that is not in the page yet. */
const waitForFieldMs = 3_000;

export function focusSettingsField(root: HTMLElement, field: string, section: SettingsSectionId): void {
  // Field names are letters, digits and hyphens (settings-form-model.ts): no escaping needed.
  const selector = `[data-settings-field="${field}"]`;
  const focus = (element: HTMLElement) => {
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  };
  const present = root.querySelector<HTMLElement>(selector);
  if (present) {
    focus(present);
    return;
  }
  document.getElementById(getSettingsSectionElementId(section))?.scrollIntoView({ block: 'start' });
  const observer = new MutationObserver(() => {
    const element = root.querySelector<HTMLElement>(selector);
    if (!element) return;
    stop();
    focus(element);
  });
  const timer = window.setTimeout(() => stop(), waitForFieldMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(root, { childList: true, subtree: true });
}
