// Slovenian (sl): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} uporablja piškotke',
  notice:
    'Piškotke in podobne tehnologije uporabljamo le za namene, ki jih dovolite. Svojo izbiro lahko kadar koli spremenite.',
  privacyPolicy: 'Politika zasebnosti',
  acceptAll: 'Sprejmi vse',
  rejectAll: 'Zavrni vse',
  customize: 'Prilagodi',
  settings: 'Nastavitve piškotkov',
  centreTitle: 'Nastavitve zasebnosti',
  centreIntro:
    'Izberite, kaj dovolite. Nujni piškotki skrbijo za delovanje spletnega mesta in so vedno vklopljeni.',
  save: 'Shrani izbiro',
  close: 'Zapri',
  alwaysOn: 'Vedno vklopljeno',
  services: 'Storitve in piškotki',
  necessary: 'Nujni',
  necessaryDescription:
    'Potrebni za delovanje spletnega mesta, na primer za varnost in shranjevanje te izbire.',
  preferences: 'Preference',
  preferencesDescription: 'Si med obiski zapomnijo vaše nastavitve, na primer jezik ali regijo.',
  analytics: 'Analitika',
  analyticsDescription:
    'Štejejo obiske in kažejo, kako se spletno mesto uporablja, da ga je mogoče izboljšati.',
  marketing: 'Trženje',
  marketingDescription:
    'Prikazujejo vam ustrezne oglase in merijo njihovo uspešnost na tem in drugih spletnih mestih.',
  identification: 'Identifikacija',
  identificationDescription:
    'Lastniku spletnega mesta omogočajo, da izve, kdo ste, na podlagi kontaktnih podatkov, ki jih vnesete, ali omrežja vašega podjetja, da se lahko z vami poveže glede svojih ponudb.',
  doNotSell: 'Ne prodajajte in ne delite mojih osebnih podatkov',
  optedOut: 'Zavrnili ste prodajo in deljenje svojih osebnih podatkov.',
  blocked: 'Ta vsebina je blokirana, dokler ne dovolite kategorije {purpose}.',
  enable: 'Dovoli: {purpose}',
};
