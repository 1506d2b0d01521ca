// Swedish (sv): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} använder cookies',
  notice:
    'Vi använder cookies och liknande tekniker endast för de ändamål som du tillåter. Du kan när som helst ändra ditt val.',
  privacyPolicy: 'Integritetspolicy',
  acceptAll: 'Godkänn alla',
  rejectAll: 'Avvisa alla',
  customize: 'Anpassa',
  settings: 'Cookieinställningar',
  centreTitle: 'Integritetsinställningar',
  centreIntro:
    'Välj vad du tillåter. Nödvändiga cookies håller webbplatsen igång och är alltid aktiverade.',
  save: 'Spara val',
  close: 'Stäng',
  alwaysOn: 'Alltid aktiva',
  services: 'Tjänster och cookies',
  necessary: 'Nödvändiga',
  necessaryDescription:
    'Behövs för att webbplatsen ska fungera, till exempel för säkerheten och för att komma ihåg det här valet.',
  preferences: 'Preferenser',
  preferencesDescription: 'Kommer ihåg dina inställningar, som språk eller region, mellan besöken.',
  analytics: 'Statistik',
  analyticsDescription: 'Räknar besök och visar hur webbplatsen används, så att den kan förbättras.',
  marketing: 'Marknadsföring',
  marketingDescription:
    'Visar dig relevanta annonser och mäter hur väl de fungerar, på den här webbplatsen och på andra.',
  identification: 'Identifiering',
  identificationDescription:
    'Låter webbplatsens ägare veta vem du är, utifrån de kontaktuppgifter du anger eller ditt företags nätverk, så att ägaren kan kontakta dig om sina erbjudanden.',
  doNotSell: 'Sälj eller dela inte mina personuppgifter',
  optedOut: 'Du har valt bort försäljning och delning av dina personuppgifter.',
  blocked: 'Det här innehållet är blockerat tills du tillåter {purpose}.',
  enable: 'Tillåt {purpose}',
};
