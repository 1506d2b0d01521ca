// German (de): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} verwendet Cookies',
  notice:
    'Wir verwenden Cookies und ähnliche Technologien nur für die Zwecke, die Sie erlauben. Sie können Ihre Auswahl jederzeit ändern.',
  privacyPolicy: 'Datenschutzerklärung',
  acceptAll: 'Alle akzeptieren',
  rejectAll: 'Alle ablehnen',
  customize: 'Anpassen',
  settings: 'Cookie-Einstellungen',
  centreTitle: 'Datenschutzeinstellungen',
  centreIntro:
    'Wählen Sie, was Sie erlauben möchten. Notwendige Cookies sorgen dafür, dass die Website funktioniert, und sind immer aktiv.',
  save: 'Auswahl speichern',
  close: 'Schließen',
  alwaysOn: 'Immer aktiv',
  services: 'Dienste und Cookies',
  necessary: 'Notwendig',
  necessaryDescription:
    'Erforderlich, damit die Website funktioniert, etwa für die Sicherheit und um diese Auswahl zu speichern.',
  preferences: 'Präferenzen',
  preferencesDescription: 'Speichern Ihre Einstellungen wie Sprache oder Region für künftige Besuche.',
  analytics: 'Statistik',
  analyticsDescription: 'Zählen Besuche und zeigen, wie die Website genutzt wird, damit sie verbessert werden kann.',
  marketing: 'Marketing',
  marketingDescription:
    'Zeigen Ihnen passende Werbung und messen, wie gut sie wirkt – auf dieser und auf anderen Websites.',
  identification: 'Identifizierung',
  identificationDescription:
    'Teilen dem Betreiber der Website mit, wer Sie sind – anhand der von Ihnen eingegebenen Kontaktdaten oder Ihres Firmennetzwerks –, damit er Sie zu seinen Angeboten kontaktieren kann.',
  doNotSell: 'Meine personenbezogenen Daten nicht verkaufen oder weitergeben',
  optedOut: 'Sie haben dem Verkauf und der Weitergabe Ihrer personenbezogenen Daten widersprochen.',
  blocked: 'Diese Inhalte sind gesperrt, bis Sie {purpose} erlauben.',
  enable: '{purpose} erlauben',
};
