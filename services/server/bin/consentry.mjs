#!/usr/bin/env node
// The installed `consentry` command (`npx consentry …` in a checkout): runs the TypeScript CLI
// through tsx's loader, exactly as `npm run consentry -- …` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
