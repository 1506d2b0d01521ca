// Danish (da): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} bruger cookies',
  notice:
    'Vi bruger kun cookies og lignende teknologier til de formål, du giver tilladelse til. Du kan til enhver tid ændre dit valg.',
  privacyPolicy: 'Privatlivspolitik',
  acceptAll: 'Accepter alle',
  rejectAll: 'Afvis alle',
  customize: 'Tilpas',
  settings: 'Cookieindstillinger',
  centreTitle: 'Privatlivsindstillinger',
  centreIntro:
    'Vælg, hvad du vil tillade. Nødvendige cookies får hjemmesiden til at fungere og er altid slået til.',
  save: 'Gem valg',
  close: 'Luk',
  alwaysOn: 'Altid slået til',
  services: 'Tjenester og cookies',
  necessary: 'Nødvendige',
  necessaryDescription:
    'Kræves, for at hjemmesiden kan fungere, f.eks. af hensyn til sikkerheden og for at huske dette valg.',
  preferences: 'Præferencer',
  preferencesDescription: 'Husker dine indstillinger, f.eks. sprog eller region, fra besøg til besøg.',
  analytics: 'Statistik',
  analyticsDescription: 'Tæller besøg og viser, hvordan hjemmesiden bruges, så den kan forbedres.',
  marketing: 'Marketing',
  marketingDescription:
    'Viser dig relevante annoncer og måler, hvor godt de virker – både på denne hjemmeside og på andre.',
  identification: 'Identifikation',
  identificationDescription:
    'Lader ejeren af hjemmesiden vide, hvem du er, ud fra de kontaktoplysninger, du indtaster, eller din virksomheds netværk, så ejeren kan kontakte dig om sine tilbud.',
  doNotSell: 'Undlad at sælge eller dele mine personoplysninger',
  optedOut: 'Du har fravalgt salg og deling af dine personoplysninger.',
  blocked: 'Dette indhold er blokeret, indtil du tillader {purpose}.',
  enable: 'Tillad {purpose}',
};
