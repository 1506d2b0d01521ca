// Route loaders: each starts the queries its screen reads on entry, through the screen's own query
// options (queryClient.ensureQueryData), so hovering a link (defaultPreload: 'intent') preloads the
// data and not only the code. The loader does not hold the navigation: the screen renders at once,
// from the cache or with its own loading states, and a query that fails shows the screen's own error
// state, as when the screen starts the query itself.
export function prefetchScreenData(loads: readonly Promise<unknown>[]): void {
  // The components' queries report a failure; here it only must not become an unhandled rejection.
  for (const load of loads) load.catch(() => undefined);
}
