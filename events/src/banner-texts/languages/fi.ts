// Finnish (fi): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} käyttää evästeitä',
  notice:
    'Käytämme evästeitä ja vastaavia tekniikoita vain niihin tarkoituksiin, jotka sallit. Voit muuttaa valintaasi milloin tahansa.',
  privacyPolicy: 'Tietosuojaseloste',
  acceptAll: 'Hyväksy kaikki',
  rejectAll: 'Hylkää kaikki',
  customize: 'Mukauta',
  settings: 'Evästeasetukset',
  centreTitle: 'Tietosuoja-asetukset',
  centreIntro: 'Valitse, mitä sallit. Välttämättömät evästeet pitävät sivuston toiminnassa, ja ne ovat aina käytössä.',
  save: 'Tallenna valinnat',
  close: 'Sulje',
  alwaysOn: 'Aina käytössä',
  services: 'Palvelut ja evästeet',
  necessary: 'Välttämättömät',
  necessaryDescription: 'Tarvitaan sivuston toimintaan, esimerkiksi tietoturvaan ja tämän valinnan muistamiseen.',
  preferences: 'Mieltymykset',
  preferencesDescription: 'Muistavat asetuksesi, kuten kielen tai alueen, käyntikerrasta toiseen.',
  analytics: 'Analytiikka',
  analyticsDescription: 'Laskevat käynnit ja näyttävät, miten sivustoa käytetään, jotta sitä voidaan parantaa.',
  marketing: 'Markkinointi',
  marketingDescription:
    'Näyttävät sinulle kiinnostavia mainoksia ja mittaavat niiden tehoa tällä ja muilla sivustoilla.',
  identification: 'Tunnistaminen',
  identificationDescription:
    'Kertovat sivuston omistajalle, kuka olet, syöttämiesi yhteystietojen tai yrityksesi verkon perusteella, jotta omistaja voi ottaa sinuun yhteyttä tarjouksiinsa liittyen.',
  doNotSell: 'Älä myy tai jaa henkilötietojani',
  optedOut: 'Olet kieltänyt henkilötietojesi myymisen ja jakamisen.',
  blocked: 'Tämä sisältö on estetty, kunnes sallit kohdan {purpose}.',
  enable: 'Salli {purpose}',
};
