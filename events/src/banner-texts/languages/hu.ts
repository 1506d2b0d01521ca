// Hungarian (hu): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} sütiket használ',
  notice:
    'Sütiket és hasonló technológiákat csak az Ön által engedélyezett célokra használunk. Döntését bármikor módosíthatja.',
  privacyPolicy: 'Adatvédelmi tájékoztató',
  acceptAll: 'Összes elfogadása',
  rejectAll: 'Összes elutasítása',
  customize: 'Testreszabás',
  settings: 'Sütibeállítások',
  centreTitle: 'Adatvédelmi beállítások',
  centreIntro:
    'Válassza ki, mit engedélyez. A szükséges sütik biztosítják az oldal működését, és mindig be vannak kapcsolva.',
  save: 'Beállítások mentése',
  close: 'Bezárás',
  alwaysOn: 'Mindig bekapcsolva',
  services: 'Szolgáltatások és sütik',
  necessary: 'Szükséges',
  necessaryDescription: 'Az oldal működéséhez elengedhetetlenek, például a biztonsághoz és e választás megjegyzéséhez.',
  preferences: 'Preferenciák',
  preferencesDescription: 'Megjegyzik a beállításait, például a nyelvet vagy a régiót, a látogatások között.',
  analytics: 'Statisztika',
  analyticsDescription:
    'Megszámolják a látogatásokat, és megmutatják, hogyan használják az oldalt, hogy fejleszteni lehessen.',
  marketing: 'Marketing',
  marketingDescription:
    'Releváns hirdetéseket jelenítenek meg Önnek, és mérik azok hatékonyságát ezen és más oldalakon.',
  identification: 'Azonosítás',
  identificationDescription:
    'Lehetővé teszik, hogy az oldal tulajdonosa megtudja, kicsoda Ön – az Ön által megadott elérhetőségek vagy vállalata hálózata alapján –, és ajánlataival megkereshesse Önt.',
  doNotSell: 'Ne adják el és ne osszák meg a személyes adataimat',
  optedOut: 'Ön letiltotta személyes adatai eladását és megosztását.',
  blocked: 'Ez a tartalom le van tiltva, amíg nem engedélyezi a következőt: {purpose}.',
  enable: 'Engedélyezés: {purpose}',
};
