// Romanian (ro): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} folosește cookie-uri',
  notice:
    'Folosim cookie-uri și tehnologii similare doar în scopurile pe care le permiteți. Vă puteți schimba alegerea în orice moment.',
  privacyPolicy: 'Politica de confidențialitate',
  acceptAll: 'Acceptați toate',
  rejectAll: 'Respingeți toate',
  customize: 'Personalizați',
  settings: 'Setări pentru cookie-uri',
  centreTitle: 'Preferințe de confidențialitate',
  centreIntro:
    'Alegeți ce permiteți. Cookie-urile necesare asigură funcționarea site-ului și sunt mereu active.',
  save: 'Salvați opțiunile',
  close: 'Închideți',
  alwaysOn: 'Mereu active',
  services: 'Servicii și cookie-uri',
  necessary: 'Necesare',
  necessaryDescription:
    'Indispensabile pentru funcționarea site-ului, de exemplu pentru securitate și pentru a reține această alegere.',
  preferences: 'Preferințe',
  preferencesDescription:
    'Rețin setările dumneavoastră, cum ar fi limba sau regiunea, de la o vizită la alta.',
  analytics: 'Analiză',
  analyticsDescription: 'Numără vizitele și arată cum este folosit site-ul, pentru a-l putea îmbunătăți.',
  marketing: 'Marketing',
  marketingDescription:
    'Vă afișează reclame relevante și măsoară cât de bine funcționează acestea, pe acest site și pe altele.',
  identification: 'Identificare',
  identificationDescription:
    'Îi permit proprietarului site-ului să afle cine sunteți, pe baza datelor de contact pe care le introduceți sau a rețelei companiei dumneavoastră, pentru a vă contacta în legătură cu ofertele sale.',
  doNotSell: 'Nu vindeți și nu partajați datele mele personale',
  optedOut: 'Ați refuzat vânzarea și partajarea datelor dumneavoastră personale.',
  blocked: 'Acest conținut este blocat până când permiteți categoria {purpose}.',
  enable: 'Permiteți {purpose}',
};
