// The cookie classifier over the Open Cookie Database, as the scanner uses it.
export {
  classifyCookie,
  createCookieClassifier,
  getDefaultCookieClassifier,
  purposeOfCategory,
  type ClassifyInput,
  type CookieClassification,
  type CookieClassifier,
  type CookiePurpose,
  type StorageKind,
} from './classify';
export { readCookieDatabase, type CookieDatabase, type CookieDatabaseEntry, type DatabaseCategory } from './database';
export { categoryDescriptions, describeClassification, purposeDescriptions } from './descriptions';
