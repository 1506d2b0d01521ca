// Test helpers other workspaces use: registered websites and owners.
export { addTestOwner, addTestWebsite, type TestWebsite } from './registered';
