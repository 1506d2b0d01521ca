// Test helpers of the workers, for their own tests and the whole-product tests in e2e/: a website
// served on loopback for the scanner, a scriptable enrichment provider, a Hunter.io stand-in, and the
// async projections brought up to date in one step.
export { catchUpProjections } from './compliance/testing';
export { allowTestHosts, serveTestSite, siteDomain, testLookup, type TestSite, type TestSiteOptions } from './scanner/test-site.test-helper';
export { defaultDetails, TestProvider, type ProviderRequest, type ProviderStep } from './enrichment/test-provider.test-helper';
export { HunterServer, hunterCompany, hunterPerson, hunterTestKey, type HunterStep } from './enrichment/hunter-server.test-helper';
