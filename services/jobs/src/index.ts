// The background workers `consentry start` runs beside the HTTP services: the cookie scanner, lead
// enrichment, webhook delivery, and the compliance jobs the CLI runs. None of them serves HTTP; the
// composition root that starts them is services/server.
export * from './compliance';
export * from './enrichment';
export * from './scanner';
export * from './webhooks';
