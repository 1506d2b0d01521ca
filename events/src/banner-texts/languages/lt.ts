// Lithuanian (lt): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} naudoja slapukus',
  notice:
    'Slapukus ir panašias technologijas naudojame tik jūsų leidžiamais tikslais. Savo pasirinkimą galite bet kada pakeisti.',
  privacyPolicy: 'Privatumo politika',
  acceptAll: 'Priimti visus',
  rejectAll: 'Atmesti visus',
  customize: 'Tinkinti',
  settings: 'Slapukų nustatymai',
  centreTitle: 'Privatumo nuostatos',
  centreIntro: 'Pasirinkite, ką leidžiate. Būtinieji slapukai užtikrina svetainės veikimą ir visada yra įjungti.',
  save: 'Išsaugoti pasirinkimą',
  close: 'Uždaryti',
  alwaysOn: 'Visada įjungti',
  services: 'Paslaugos ir slapukai',
  necessary: 'Būtinieji',
  necessaryDescription: 'Reikalingi svetainės veikimui, pavyzdžiui, saugumui užtikrinti ir šiam pasirinkimui įsiminti.',
  preferences: 'Nuostatos',
  preferencesDescription: 'Įsimena jūsų nustatymus, pavyzdžiui, kalbą ar regioną, tarp apsilankymų.',
  analytics: 'Analitika',
  analyticsDescription: 'Skaičiuoja apsilankymus ir parodo, kaip naudojamasi svetaine, kad ją būtų galima tobulinti.',
  marketing: 'Rinkodara',
  marketingDescription: 'Rodo jums aktualias reklamas ir matuoja jų veiksmingumą šioje ir kitose svetainėse.',
  identification: 'Identifikavimas',
  identificationDescription:
    'Leidžia svetainės savininkui sužinoti, kas jūs esate, pagal jūsų įvestus kontaktinius duomenis arba jūsų įmonės tinklą, kad galėtų su jumis susisiekti dėl savo pasiūlymų.',
  doNotSell: 'Neparduoti ir nebendrinti mano asmeninės informacijos',
  optedOut: 'Atsisakėte savo asmeninės informacijos pardavimo ir bendrinimo.',
  blocked: 'Šis turinys užblokuotas, kol neleisite kategorijos „{purpose}“.',
  enable: 'Leisti: {purpose}',
};
