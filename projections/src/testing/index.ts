// Test helpers other workspaces use: registered websites and owners, and the projection spec.
export { addTestOwner, addTestWebsite, type TestWebsite } from './registered';
export { projectionSpec, type ProjectionSpec, type ProjectionThen } from './projection-spec';
