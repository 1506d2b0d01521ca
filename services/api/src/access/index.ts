// Who may call what (docs/architecture.md, "Access"): the viewer of a request, the rule each route
// names, the one check that applies it, and the websites a viewer may see.
export { accessRules, checkAccess, isAccessRule, ownerAccountRequired, passwordChangeRequired, type AccessRule } from './rules';
export { forgetViewer, getViewer, sessionViewers, type Viewer, type ViewerSource } from './viewer';
export { accessControl, reloadViewer, signedInAdmin, signedInOwner, signedInViewer, withAccessRules, type AccessControlOptions } from './plugin';
export { canSeeWebsite, visibleWebsite, visibleWebsiteIds, visibleWebsites } from './websites';
