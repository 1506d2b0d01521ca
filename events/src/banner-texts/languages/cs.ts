// Czech (cs): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} používá soubory cookie',
  notice:
    'Soubory cookie a podobné technologie používáme pouze k účelům, které povolíte. Svou volbu můžete kdykoli změnit.',
  privacyPolicy: 'Zásady ochrany osobních údajů',
  acceptAll: 'Přijmout vše',
  rejectAll: 'Odmítnout vše',
  customize: 'Přizpůsobit',
  settings: 'Nastavení souborů cookie',
  centreTitle: 'Předvolby ochrany soukromí',
  centreIntro: 'Vyberte, co povolíte. Nezbytné soubory cookie zajišťují fungování webu a jsou vždy zapnuté.',
  save: 'Uložit výběr',
  close: 'Zavřít',
  alwaysOn: 'Vždy aktivní',
  services: 'Služby a soubory cookie',
  necessary: 'Nezbytné',
  necessaryDescription: 'Potřebné pro fungování webu, například pro zabezpečení a zapamatování této volby.',
  preferences: 'Předvolby',
  preferencesDescription: 'Pamatují si vaše nastavení, například jazyk nebo region, mezi jednotlivými návštěvami.',
  analytics: 'Analytika',
  analyticsDescription: 'Počítají návštěvy a ukazují, jak se web používá, aby jej bylo možné zlepšovat.',
  marketing: 'Marketing',
  marketingDescription: 'Zobrazují vám relevantní reklamy a měří jejich účinnost na tomto i jiných webech.',
  identification: 'Identifikace',
  identificationDescription:
    'Umožňují provozovateli webu zjistit, kdo jste, na základě zadaných kontaktních údajů nebo sítě vaší firmy, aby vás mohl kontaktovat se svými nabídkami.',
  doNotSell: 'Neprodávat ani nesdílet mé osobní údaje',
  optedOut: 'Odmítli jste prodej a sdílení svých osobních údajů.',
  blocked: 'Tento obsah je zablokován, dokud nepovolíte kategorii {purpose}.',
  enable: 'Povolit kategorii {purpose}',
};
