// Estonian (et): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} kasutab küpsiseid',
  notice:
    'Kasutame küpsiseid ja sarnaseid tehnoloogiaid ainult nendel eesmärkidel, mida te lubate. Saate oma valikut igal ajal muuta.',
  privacyPolicy: 'Privaatsuspoliitika',
  acceptAll: 'Nõustu kõigiga',
  rejectAll: 'Keeldu kõigist',
  customize: 'Kohanda',
  settings: 'Küpsiste seaded',
  centreTitle: 'Privaatsuseelistused',
  centreIntro: 'Valige, mida lubate. Vajalikud küpsised tagavad veebisaidi toimimise ja on alati sisse lülitatud.',
  save: 'Salvesta valikud',
  close: 'Sulge',
  alwaysOn: 'Alati lubatud',
  services: 'Teenused ja küpsised',
  necessary: 'Vajalikud',
  necessaryDescription:
    'Veebisaidi toimimiseks hädavajalikud, näiteks turvalisuse tagamiseks ja selle valiku meelespidamiseks.',
  preferences: 'Eelistused',
  preferencesDescription: 'Jätavad teie seaded, näiteks keele või piirkonna, külastuste vahel meelde.',
  analytics: 'Analüütika',
  analyticsDescription: 'Loendavad külastusi ja näitavad, kuidas veebisaiti kasutatakse, et seda saaks paremaks muuta.',
  marketing: 'Turundus',
  marketingDescription:
    'Näitavad teile asjakohaseid reklaame ja mõõdavad nende tõhusust nii sellel kui ka teistel veebisaitidel.',
  identification: 'Tuvastamine',
  identificationDescription:
    'Annavad veebisaidi omanikule teada, kes te olete, kasutades teie sisestatud kontaktandmeid või teie ettevõtte võrku, et omanik saaks teiega oma pakkumiste asjus ühendust võtta.',
  doNotSell: 'Ärge müüge ega jagage minu isikuandmeid',
  optedOut: 'Olete keeldunud oma isikuandmete müümisest ja jagamisest.',
  blocked: 'See sisu on blokeeritud, kuni lubate kategooria {purpose}.',
  enable: 'Luba {purpose}',
};
