// Croatian (hr): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} koristi kolačiće',
  notice:
    'Kolačiće i slične tehnologije koristimo samo u svrhe koje dopustite. Svoj izbor možete promijeniti u bilo kojem trenutku.',
  privacyPolicy: 'Pravila privatnosti',
  acceptAll: 'Prihvati sve',
  rejectAll: 'Odbij sve',
  customize: 'Prilagodi',
  settings: 'Postavke kolačića',
  centreTitle: 'Postavke privatnosti',
  centreIntro: 'Odaberite što dopuštate. Nužni kolačići omogućuju rad stranice i uvijek su uključeni.',
  save: 'Spremi odabir',
  close: 'Zatvori',
  alwaysOn: 'Uvijek uključeno',
  services: 'Usluge i kolačići',
  necessary: 'Nužni',
  necessaryDescription: 'Potrebni za rad stranice, primjerice za sigurnost i pamćenje ovog odabira.',
  preferences: 'Preferencije',
  preferencesDescription: 'Pamte vaše postavke, poput jezika ili regije, između posjeta.',
  analytics: 'Analitika',
  analyticsDescription: 'Broje posjete i pokazuju na koji se način stranica koristi, kako bi se mogla poboljšati.',
  marketing: 'Marketing',
  marketingDescription: 'Prikazuju vam relevantne oglase i mjere njihovu učinkovitost, na ovoj i drugim stranicama.',
  identification: 'Identifikacija',
  identificationDescription:
    'Vlasniku stranice omogućuju da sazna tko ste, na temelju kontaktnih podataka koje unesete ili mreže vaše tvrtke, kako bi vas mogao kontaktirati u vezi sa svojim ponudama.',
  doNotSell: 'Nemojte prodavati ni dijeliti moje osobne podatke',
  optedOut: 'Odbili ste prodaju i dijeljenje svojih osobnih podataka.',
  blocked: 'Ovaj je sadržaj blokiran dok ne dopustite kategoriju „{purpose}”.',
  enable: 'Dopusti: {purpose}',
};
