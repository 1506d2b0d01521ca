// The entry point of widget.js (built by scripts/build.ts into one IIFE). The only module with a side
// effect: it starts the widget for the script tag that is running right now.

import { guard } from './guard';
import { startWidget } from './widget';

// currentScript must be read now: it is null again once this first run is over.
guard(() => void startWidget(window, document.currentScript))();
