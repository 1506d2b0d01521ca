// Dutch (nl): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} gebruikt cookies',
  notice:
    'Wij gebruiken cookies en vergelijkbare technieken alleen voor de doeleinden waarvoor u toestemming geeft. U kunt uw keuze op elk moment wijzigen.',
  privacyPolicy: 'Privacybeleid',
  acceptAll: 'Alles accepteren',
  rejectAll: 'Alles weigeren',
  customize: 'Aanpassen',
  settings: 'Cookie-instellingen',
  centreTitle: 'Privacyvoorkeuren',
  centreIntro: 'Kies wat u toestaat. Noodzakelijke cookies zorgen ervoor dat de website werkt en staan altijd aan.',
  save: 'Keuzes opslaan',
  close: 'Sluiten',
  alwaysOn: 'Altijd aan',
  services: 'Diensten en cookies',
  necessary: 'Noodzakelijk',
  necessaryDescription:
    'Nodig om de website te laten werken, bijvoorbeeld voor de beveiliging en om deze keuze te onthouden.',
  preferences: 'Voorkeuren',
  preferencesDescription: 'Uw instellingen, zoals taal of regio, onthouden tussen bezoeken.',
  analytics: 'Analyse',
  analyticsDescription: 'Bezoeken tellen en zien hoe de website wordt gebruikt, zodat deze kan worden verbeterd.',
  marketing: 'Marketing',
  marketingDescription:
    'U relevante advertenties tonen en meten hoe goed die werken, op deze website en daarbuiten.',
  identification: 'Identificatie',
  identificationDescription:
    'De eigenaar van de website laten weten wie u bent, op basis van de contactgegevens die u invult of het netwerk van uw bedrijf, om contact met u op te nemen over zijn aanbod.',
  doNotSell: 'Mijn persoonsgegevens niet verkopen of delen',
  optedOut: 'U hebt aangegeven dat uw persoonsgegevens niet verkocht of gedeeld mogen worden.',
  blocked: 'Deze inhoud is geblokkeerd totdat u {purpose} toestaat.',
  enable: '{purpose} toestaan',
};
