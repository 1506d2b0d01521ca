// The entry point of identify.js (built by scripts/build.ts into its own IIFE). widget.js adds it to the
// page once the visitor allowed identification, with what it needs on the script element itself, so
// nothing of it is on the page's globals; run any other way, it does nothing.

import { guard } from './guard';
import { startIdentify, type IdentifyBridge } from './identify';

// currentScript must be read now: it is null again once this first run is over.
guard(() => {
  const bridge = (document.currentScript as { consentry?: IdentifyBridge } | null)?.consentry;
  if (bridge) startIdentify(window, bridge);
})();
