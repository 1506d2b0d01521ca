// Polish (pl): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} używa plików cookie',
  notice:
    'Używamy plików cookie i podobnych technologii wyłącznie w celach, na które wyrażą Państwo zgodę. Swój wybór mogą Państwo zmienić w dowolnym momencie.',
  privacyPolicy: 'Polityka prywatności',
  acceptAll: 'Akceptuj wszystkie',
  rejectAll: 'Odrzuć wszystkie',
  customize: 'Dostosuj',
  settings: 'Ustawienia plików cookie',
  centreTitle: 'Preferencje prywatności',
  centreIntro:
    'Prosimy wybrać, na co Państwo zezwalają. Niezbędne pliki cookie zapewniają działanie strony i są zawsze włączone.',
  save: 'Zapisz wybór',
  close: 'Zamknij',
  alwaysOn: 'Zawsze włączone',
  services: 'Usługi i pliki cookie',
  necessary: 'Niezbędne',
  necessaryDescription:
    'Potrzebne do działania strony, np. do zapewnienia bezpieczeństwa i zapamiętania tego wyboru.',
  preferences: 'Preferencje',
  preferencesDescription: 'Zapamiętują Państwa ustawienia, takie jak język czy region, między wizytami.',
  analytics: 'Analityka',
  analyticsDescription: 'Liczą odwiedziny i pokazują, jak korzysta się ze strony, aby można ją było ulepszać.',
  marketing: 'Marketing',
  marketingDescription:
    'Wyświetlają Państwu dopasowane reklamy i mierzą ich skuteczność – na tej stronie i na innych.',
  identification: 'Identyfikacja',
  identificationDescription:
    'Pozwalają właścicielowi strony dowiedzieć się, kim Państwo są – na podstawie wprowadzonych danych kontaktowych lub sieci Państwa firmy – aby mógł się z Państwem skontaktować w sprawie swojej oferty.',
  doNotSell: 'Nie sprzedawaj ani nie udostępniaj moich danych osobowych',
  optedOut: 'Wyrazili Państwo sprzeciw wobec sprzedaży i udostępniania swoich danych osobowych.',
  blocked: 'Ta treść jest zablokowana, dopóki nie zezwolą Państwo na kategorię: {purpose}.',
  enable: 'Zezwól: {purpose}',
};
