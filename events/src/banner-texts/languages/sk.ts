// Slovak (sk): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} používa súbory cookie',
  notice:
    'Súbory cookie a podobné technológie používame len na účely, ktoré povolíte. Svoju voľbu môžete kedykoľvek zmeniť.',
  privacyPolicy: 'Zásady ochrany osobných údajov',
  acceptAll: 'Prijať všetko',
  rejectAll: 'Odmietnuť všetko',
  customize: 'Prispôsobiť',
  settings: 'Nastavenia súborov cookie',
  centreTitle: 'Predvoľby ochrany súkromia',
  centreIntro:
    'Vyberte, čo povolíte. Nevyhnutné súbory cookie zabezpečujú fungovanie webu a sú vždy zapnuté.',
  save: 'Uložiť výber',
  close: 'Zavrieť',
  alwaysOn: 'Vždy zapnuté',
  services: 'Služby a súbory cookie',
  necessary: 'Nevyhnutné',
  necessaryDescription: 'Potrebné na fungovanie webu, napríklad na zabezpečenie a zapamätanie tejto voľby.',
  preferences: 'Predvoľby',
  preferencesDescription: 'Zapamätajú si vaše nastavenia, napríklad jazyk alebo región, medzi návštevami.',
  analytics: 'Analytika',
  analyticsDescription: 'Počítajú návštevy a ukazujú, ako sa web používa, aby sa dal zlepšovať.',
  marketing: 'Marketing',
  marketingDescription: 'Zobrazujú vám relevantné reklamy a merajú ich účinnosť na tomto webe aj na iných.',
  identification: 'Identifikácia',
  identificationDescription:
    'Umožňujú prevádzkovateľovi webu zistiť, kto ste, na základe kontaktných údajov, ktoré zadáte, alebo siete vašej firmy, aby vás mohol kontaktovať so svojimi ponukami.',
  doNotSell: 'Nepredávajte ani nezdieľajte moje osobné údaje',
  optedOut: 'Odmietli ste predaj a zdieľanie svojich osobných údajov.',
  blocked: 'Tento obsah je blokovaný, kým nepovolíte kategóriu {purpose}.',
  enable: 'Povoliť: {purpose}',
};
