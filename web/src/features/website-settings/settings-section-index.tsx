// The section index of the banner settings: a link per section, sticky under the app's header, that
// scrolls to the section and says which sections hold unsaved changes or a field to fix. One row at
// every width: it wraps on wide screens and scrolls sideways on phones, so it never takes half a
// phone's screen. The current section (the last whose top passed under the index) is marked.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { cn } from '../../lib/cn';
import { getSettingsSectionElementId, settingsSections, type SettingsSectionId } from './settings-sections';

/** How far below the top of the viewport a section counts as the current one: the header and the index. */
const currentSectionOffset = 150;

export function SettingsSectionIndex({
  unsavedSections,
  blockedSections,
}: {
  unsavedSections: readonly SettingsSectionId[];
  blockedSections: readonly SettingsSectionId[];
}) {
  const current = useCurrentSection();
  const listRef = useRef<HTMLUListElement>(null);
  // On a phone the row scrolls sideways: keep the current section's link in sight.
  useEffect(() => {
    const list = listRef.current;
    const link = list?.querySelector<HTMLElement>('[aria-current="location"]');
    if (!list || !link) return;
    const shown = list.getBoundingClientRect();
    const place = link.getBoundingClientRect();
    if (place.left < shown.left) list.scrollLeft -= shown.left - place.left + 16;
    else if (place.right > shown.right) list.scrollLeft += place.right - shown.right + 16;
  }, [current]);
  return (
    // contain: the links' width never widens the card; on a phone the row scrolls sideways instead.
    <nav
      aria-label="Banner settings sections"
      className="sticky top-16 z-20 -mx-6 border-b bg-card/95 px-6 py-2 backdrop-blur [contain:inline-size] supports-[backdrop-filter]:bg-card/80"
    >
      <ul ref={listRef} className="-mx-1 flex gap-1 overflow-x-auto px-1 py-0.5 [scrollbar-width:none] sm:flex-wrap">
        {settingsSections.map((section) => {
          const blocked = blockedSections.includes(section.id);
          const unsaved = unsavedSections.includes(section.id);
          const state = blocked ? ' (a field to fix)' : unsaved ? ' (unsaved changes)' : '';
          return (
            <li key={section.id} className="shrink-0">
              <a
                href={`#${getSettingsSectionElementId(section.id)}`}
                onClick={(event) => jumpToSection(event, section.id)}
                aria-current={current === section.id ? 'location' : undefined}
                aria-label={state ? `${section.title}${state}` : undefined}
                title={state ? `${section.title}${state}` : undefined}
                className={cn(
                  'inline-flex h-8 items-center gap-1.5 whitespace-nowrap rounded-full px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  current === section.id && 'bg-primary/10 text-primary hover:bg-primary/10 hover:text-primary',
                )}
              >
                {section.title}
                {state ? <span aria-hidden className={cn('size-2 rounded-full', blocked ? 'bg-destructive' : 'bg-amber-500')} /> : null}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Scrolls to the section and moves focus to its heading, without a router navigation (the hash alone). */
function jumpToSection(event: MouseEvent<HTMLAnchorElement>, section: SettingsSectionId) {
  const element = document.getElementById(getSettingsSectionElementId(section));
  if (!element) return;
  event.preventDefault();
  element.scrollIntoView({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  document.getElementById(`${getSettingsSectionElementId(section)}-title`)?.focus({ preventScroll: true });
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function useCurrentSection(): SettingsSectionId | null {
  const [current, setCurrent] = useState<SettingsSectionId | null>(null);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      let found: SettingsSectionId | null = null;
      for (const section of settingsSections) {
        const element = document.getElementById(getSettingsSectionElementId(section.id));
        if (element && element.getBoundingClientRect().top <= currentSectionOffset) found = section.id;
      }
      // At the very bottom the last sections cannot scroll up to the index: the last one is current.
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2 && document.documentElement.scrollHeight > window.innerHeight) {
        found = settingsSections[settingsSections.length - 1]?.id ?? found;
      }
      setCurrent(found ?? settingsSections[0].id);
    };
    const schedule = () => {
      if (frame === 0) frame = window.requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, []);
  return current;
}
