// Latvian (lv): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} izmanto sīkdatnes',
  notice:
    'Sīkdatnes un līdzīgas tehnoloģijas mēs izmantojam tikai tiem nolūkiem, kurus jūs atļaujat. Savu izvēli varat mainīt jebkurā laikā.',
  privacyPolicy: 'Privātuma politika',
  acceptAll: 'Pieņemt visas',
  rejectAll: 'Noraidīt visas',
  customize: 'Pielāgot',
  settings: 'Sīkdatņu iestatījumi',
  centreTitle: 'Privātuma preferences',
  centreIntro: 'Izvēlieties, ko atļaujat. Nepieciešamās sīkdatnes nodrošina vietnes darbību un vienmēr ir ieslēgtas.',
  save: 'Saglabāt izvēli',
  close: 'Aizvērt',
  alwaysOn: 'Vienmēr ieslēgtas',
  services: 'Pakalpojumi un sīkdatnes',
  necessary: 'Nepieciešamās',
  necessaryDescription: 'Vajadzīgas vietnes darbībai, piemēram, drošībai un šīs izvēles atcerēšanai.',
  preferences: 'Preferences',
  preferencesDescription: 'Atceras jūsu iestatījumus, piemēram, valodu vai reģionu, starp apmeklējumiem.',
  analytics: 'Analītika',
  analyticsDescription: 'Uzskaita apmeklējumus un parāda, kā vietne tiek izmantota, lai to varētu uzlabot.',
  marketing: 'Mārketings',
  marketingDescription: 'Rāda jums atbilstošas reklāmas un mēra to efektivitāti šajā un citās vietnēs.',
  identification: 'Identifikācija',
  identificationDescription:
    'Ļauj vietnes īpašniekam uzzināt, kas jūs esat, izmantojot jūsu ievadīto kontaktinformāciju vai jūsu uzņēmuma tīklu, lai sazinātos ar jums par saviem piedāvājumiem.',
  doNotSell: 'Nepārdot un nekopīgot manu personisko informāciju',
  optedOut: 'Jūs esat atteikušies no savas personiskās informācijas pārdošanas un kopīgošanas.',
  blocked: 'Šis saturs ir bloķēts, līdz jūs atļausiet kategoriju „{purpose}”.',
  enable: 'Atļaut: {purpose}',
};
