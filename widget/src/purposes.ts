// The purposes a visitor chooses one by one (the events package's purpose contract, restated here
// because widget.js bundles nothing from the server side). `necessary` is always on and never stored.

export const PURPOSES = ['preferences', 'analytics', 'marketing', 'identification'] as const;
export type Purpose = (typeof PURPOSES)[number];
/** Each optional purpose, granted or not. */
export type Granted = Record<Purpose, boolean>;
export type Method = 'accept_all' | 'reject_all' | 'custom' | 'gpc' | 'jurisdiction_default';

/** Only what `offered` names, granted (`on`) or refused. */
export function grant(offered: readonly Purpose[], on: boolean | ((purpose: Purpose) => boolean)): Granted {
  const g = {} as Granted;
  for (const p of PURPOSES) g[p] = offered.indexOf(p) >= 0 && (typeof on === 'function' ? on(p) : on);
  return g;
}

export const anyGranted = (g: Granted): boolean => PURPOSES.some((p) => g[p]);

/**
 * `allowsIdentification` of events/src/identification.ts: identification needs the visitor's own act,
 * the purpose granted by Accept All or a custom choice, never a region's opt-out default.
 */
export const allowsIdentification = (choice: { purposes: Granted; method: Method }): boolean =>
  choice.purposes.identification && (choice.method === 'accept_all' || choice.method === 'custom');

/** Known purposes only, each once, in canonical order. */
export function purposeList(value: unknown): Purpose[] {
  const list = Array.isArray(value) ? value : [];
  return PURPOSES.filter((p) => list.indexOf(p) >= 0);
}
