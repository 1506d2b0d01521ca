// The owner's websites: list (an admin's: all), add within the plan's limit, remove.
import {
  bannerLanguage,
  bannerPosition,
  bannerTextOverrides,
  bannerTheme,
  consentLifetimeMonths,
  identificationForms,
  ipAddressMode,
  monthlyResolutionCap,
  keepPageQueryStrings,
  offeredPurposes,
  policyVersion,
  purposeService,
  regionRules,
  scanIntervalDays,
  webUrl,
  websiteName,
  type OptionalPurpose,
  type WebsiteActor,
} from '@consentry/events';
import { getUser, getUsers, getWebsite, type User, type Website } from '@consentry/projections';
import type { Db } from '@consentry/infra';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInViewer, visibleWebsite, visibleWebsites, type Viewer } from '../access';
import { ApiError } from '../errors';
import { errorsFor, noContent, toWebsiteAnswer, uuidParam, websiteAnswer } from '../schemas';
import { normaliseDomain } from './domain-name';
import { addWebsite, changeWebsiteSettings, removeWebsite } from './websites';

const websiteSettings = z
  .object({
    retentionMonths: z.int().min(1).max(120).meta({ description: 'How long consent data is kept, in whole months (1–120, default 24).' }),
    ipAddressMode: ipAddressMode.meta({ description: "'truncated' (default) keeps IPv4 without the last octet and IPv6 without the last 80 bits, from ingest on." }),
    bannerPosition,
    bannerTheme,
    policyVersion: policyVersion.meta({ description: 'Changing it asks every visitor again.' }),
    privacyPolicyUrl: webUrl.nullable(),
    purposes: offeredPurposes
      .min(1, { error: 'Choose at least one purpose to ask for' })
      .meta({
        description:
          "The optional purposes the banner asks for, in the order preferences, analytics, marketing, identification ('necessary' is always on). Changing them asks every visitor again.",
      }),
    services: z.array(purposeService).max(200).meta({ description: 'The services or cookies listed under each purpose in the preference centre; sent whole, it replaces the list.' }),
    consentLifetimeMonths: consentLifetimeMonths.meta({ description: 'How long a choice stands before the banner asks again, in months (1–24, default 12).' }),
    defaultLanguage: bannerLanguage.meta({ description: "The banner's language for visitors whose browser languages have no texts (default en)." }),
    textOverrides: bannerTextOverrides.meta({
      description: "The owner's own wording, per language and text key; texts not named keep ours. Sent whole, it replaces the overrides.",
    }),
    regionRules: regionRules.meta({
      description:
        "The rule per region ('EU', a country such as 'GB', a US state such as 'US-CA'): opt_in, opt_out or notice_only. Regions not named keep the default: opt_out in the US opt-out states, opt_in everywhere else.",
    }),
    forceOptIn: z.boolean().meta({ description: 'Ask for consent (opt-in) everywhere, whatever the region.' }),
    scanIntervalDays: scanIntervalDays.meta({ description: 'Days between scheduled cookie scans (0–365, default 30; 0 schedules none).' }),
    identification: z.boolean().meta({
      description:
        "Lead identification (docs/identification.md): on when the banner asks for the 'identification' purpose. Switching it adds or removes that purpose, which asks every visitor again.",
    }),
    identificationForms: identificationForms.meta({
      description:
        "Which forms identify a visitor who allowed identification: 'all' forms with an email field except those marked data-consentry-identify=\"off\" (default), or only 'marked' ones (data-consentry-identify).",
    }),
    monthlyResolutionCap: monthlyResolutionCap.nullable().meta({
      description:
        'The most resolutions (people first identified on this website in a UTC month, each person once: their normalised email, else the visitor) the owner will pay for in a month, 1–10,000,000; null: unlimited (the default). ' +
        'Once reached, ingest refuses identifications of new people with 403 RESOLUTION_CAP_REACHED until the month ends; people already resolved that month are still identified. ' +
        'GET /api/leads/summary lists the websites at 80 % of their cap or more (capAlerts).',
    }),
    keepPageQueryStrings: keepPageQueryStrings.meta({
      description:
        'Keep the query string of the page addresses ingest records (the page of a consent, a page view and its referrer). Off (the default), ingest strips query strings, fragments and credentials, where what a visitor typed travels (?email=…); fragments and credentials are stripped either way.',
    }),
  })
  .meta({ id: 'WebsiteSettings', description: "A website's consent and privacy settings" });

const websiteSettingsChange = websiteSettings
  .partial()
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Send at least one setting to change' });

type WebsiteSettingsChangeBody = z.infer<typeof websiteSettingsChange>;

/**
 * The purposes a change leaves the banner asking for. `identification` is the Lead identification
 * switch: sent, it decides whether 'identification' is among the purposes, whatever `purposes` says
 * about it; the other purposes come from `purposes` when sent, else stay. A switch that changes
 * nothing changes nothing (no visitor is asked again for it). Without the switch, `purposes` is
 * taken as sent (clients that tick the purpose in the list keep working).
 */
function purposesAfter(body: WebsiteSettingsChangeBody, current: readonly OptionalPurpose[]): OptionalPurpose[] | undefined {
  if (body.identification === undefined) return body.purposes;
  const others = (body.purposes ?? current).filter((purpose) => purpose !== 'identification');
  const next: OptionalPurpose[] = body.identification ? [...others, 'identification'] : others;
  const unchanged = body.purposes === undefined && next.length === current.length && next.every((purpose, index) => purpose === current[index]);
  return unchanged ? undefined : next;
}

const toSettingsAnswer = (website: Website): z.infer<typeof websiteSettings> => ({
  retentionMonths: website.retentionMonths,
  ipAddressMode: website.ipAddressMode,
  bannerPosition: website.bannerPosition,
  bannerTheme: website.bannerTheme,
  policyVersion: website.policyVersion,
  privacyPolicyUrl: website.privacyPolicyUrl,
  purposes: [...website.purposes],
  services: [...website.services],
  consentLifetimeMonths: website.consentLifetimeMonths,
  defaultLanguage: website.defaultLanguage,
  textOverrides: website.textOverrides,
  regionRules: website.regionRules,
  forceOptIn: website.forceOptIn,
  scanIntervalDays: website.scanIntervalDays,
  identification: website.purposes.includes('identification'),
  identificationForms: website.identificationForms,
  monthlyResolutionCap: website.monthlyResolutionCap,
  keepPageQueryStrings: website.keepPageQueryStrings,
});

const newWebsiteBody = z.object({
  name: z.string().trim().pipe(websiteName),
  domain: z
    .string()
    .max(2048)
    .transform((input, ctx) => {
      const domain = normaliseDomain(input);
      if (domain === null) {
        ctx.issues.push({ code: 'custom', input, message: 'Enter a domain such as example.com', params: { apiCode: 'INVALID_DOMAIN' } });
        return z.NEVER;
      }
      return domain;
    })
    .meta({ description: 'A hostname or URL; stored as the lower-case hostname without scheme, port, path or a leading www.' }),
  ownerId: uuidParam
    .optional()
    .meta({ description: "Admins: the owner the website is for (within that owner's plan). Owners: omit it, or their own id." }),
});

export const websiteRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/websites',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['websites'], summary: "The owner's websites (an admin's: every website)", response: { 200: z.array(websiteAnswer), ...errorsFor(401) } },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      const websites = await visibleWebsites(pool, viewer);
      if (!viewer.adminUsername) return websites.map(toWebsiteAnswer);
      // An admin sees every owner's websites, so each names its owner.
      const owners = new Map((await getUsers(pool, [...new Set(websites.map((website) => website.ownerId))])).map((user) => [user.id, user]));
      return websites.map((website) => ({ ...toWebsiteAnswer(website), owner: ownerAnswer(owners.get(website.ownerId)) }));
    },
  );

  app.post(
    '/api/websites',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'signedIn' },
      schema: {
        tags: ['websites'],
        summary: 'Add a website (an admin: for the owner they choose)',
        description:
          "Refused with 403 `WEBSITE_LIMIT_REACHED` ('Website limit reached') when the owner's plan allows no more. " +
          'An admin names the owner in `ownerId` (400 `OWNER_REQUIRED` without one, unless the admin also has an owner account; 404 `OWNER_NOT_FOUND` for no such registered, active owner).',
        body: newWebsiteBody,
        response: { 201: websiteAnswer, ...errorsFor(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { ownerId, ...website } = request.body;
      const { owner, addedBy } = await ownerOfNewWebsite(pool, signedInViewer(request), ownerId);
      return reply.code(201).send(toWebsiteAnswer(await addWebsite(pool, owner, website, addedBy)));
    },
  );

  app.get(
    '/api/websites/:id/settings',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['websites'],
        summary: "A website's settings",
        description: "Another owner's website answers 404, as if it did not exist.",
        params: z.object({ id: uuidParam }),
        response: { 200: websiteSettings, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => toSettingsAnswer(await visibleWebsite(pool, signedInViewer(request), request.params.id)),
  );

  app.patch(
    '/api/websites/:id/settings',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'signedIn' },
      schema: {
        tags: ['websites'],
        summary: "Change a website's settings",
        description:
          'Only the settings sent change; each change is a WebsiteSettingsChanged event. The retention period drives `consentry purge`. ' +
          "`identification` (Lead identification) adds or removes the 'identification' purpose and wins over `purposes` for that one purpose; with a purpose left to ask for, at least one must remain.",
        params: z.object({ id: uuidParam }),
        body: websiteSettingsChange,
        response: { 200: websiteSettings, ...errorsFor(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const actor = websiteActorOf(signedInViewer(request));
      const { identification: _switch, purposes: _purposes, ...settings } = request.body;
      // The current purposes matter only to the switch; another owner's website gets 404 from the decider.
      const current = request.body.identification === undefined ? null : await getWebsite(pool, request.params.id);
      const purposes = purposesAfter(request.body, current?.purposes ?? []);
      if (purposes !== undefined && purposes.length === 0) throw new ApiError(400, 'INVALID_REQUEST', 'Purposes: Choose at least one purpose to ask for.');
      const website = await changeWebsiteSettings(pool, request.params.id, actor, { ...settings, ...(purposes === undefined ? {} : { purposes }) });
      return toSettingsAnswer(website);
    },
  );

  app.delete(
    '/api/websites/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['websites'],
        summary: 'Remove a website',
        description: "Another owner's website answers 404, as if it did not exist.",
        params: z.object({ id: uuidParam }),
        response: { 204: noContent, ...errorsFor(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeWebsite(pool, request.params.id, websiteActorOf(signedInViewer(request)));
      return reply.code(204).send(null);
    },
  );
};

/**
 * Whose account a new website goes to. An owner adds to their own account (naming another owner is
 * 403); an admin adds for the owner they name, or to their own owner account when they have one.
 */
async function ownerOfNewWebsite(pool: Db, viewer: Viewer, ownerId: string | undefined): Promise<{ owner: User; addedBy: string }> {
  if (!viewer.adminUsername) {
    // A signed-in viewer who is no admin is an owner.
    const owner = viewer.user!;
    if (ownerId !== undefined && ownerId !== owner.id) throw new ApiError(403, 'FORBIDDEN', 'Owners add websites to their own account only');
    return { owner, addedBy: owner.id };
  }
  const addedBy = viewer.adminUsername;
  if (ownerId === undefined) {
    if (viewer.user) return { owner: viewer.user, addedBy };
    throw new ApiError(400, 'OWNER_REQUIRED', 'Choose the owner this website is for');
  }
  const owner = await getUser(pool, ownerId);
  if (!owner || owner.status !== 'registered' || !owner.isActive) throw new ApiError(404, 'OWNER_NOT_FOUND', 'No active owner account with this id');
  return { owner, addedBy };
}

function ownerAnswer(user: User | undefined) {
  if (!user) return null;
  const name = [user.firstName, user.lastName].filter((part) => part !== null && part.trim() !== '').join(' ');
  return { id: user.id, email: user.email, name: name === '' ? null : name };
}

/** An admin may act on any website; an owner only on their own (the decider checks). */
function websiteActorOf(viewer: Viewer): WebsiteActor {
  // A signed-in viewer who is no admin is an owner.
  return viewer.adminUsername ? { kind: 'admin', username: viewer.adminUsername } : { kind: 'owner', userId: viewer.user!.id };
}
