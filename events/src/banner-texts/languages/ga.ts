// Irish (ga): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: 'Úsáideann {company} fianáin',
  notice:
    'Ní úsáidimid fianáin ná teicneolaíochtaí cosúla ach amháin le haghaidh na gcuspóirí a cheadaíonn tú. Is féidir leat do rogha a athrú am ar bith.',
  privacyPolicy: 'Beartas príobháideachais',
  acceptAll: 'Glac leis an iomlán',
  rejectAll: 'Diúltaigh don iomlán',
  customize: 'Saincheap',
  settings: 'Socruithe fianán',
  centreTitle: 'Roghanna príobháideachais',
  centreIntro:
    'Roghnaigh cad a cheadaíonn tú. Coinníonn fianáin riachtanacha an suíomh ag obair agus bíonn siad ar siúl i gcónaí.',
  save: 'Sábháil na roghanna',
  close: 'Dún',
  alwaysOn: 'Ar siúl i gcónaí',
  services: 'Seirbhísí agus fianáin',
  necessary: 'Riachtanach',
  necessaryDescription:
    'Ag teastáil chun go n-oibreoidh an suíomh, mar shampla ar mhaithe le slándáil agus chun an rogha seo a choinneáil i gcuimhne.',
  preferences: 'Sainroghanna',
  preferencesDescription: 'Coinníonn siad do shocruithe, amhail teanga nó réigiún, i gcuimhne ó chuairt go cuairt.',
  analytics: 'Anailísíocht',
  analyticsDescription:
    'Áiríonn siad cuairteanna agus léiríonn siad conas a úsáidtear an suíomh, ionas gur féidir é a fheabhsú.',
  marketing: 'Margaíocht',
  marketingDescription:
    'Taispeánann siad fógraí ábhartha duit agus tomhaiseann siad cé chomh maith is a oibríonn siad, ar an suíomh seo agus ar shuíomhanna eile.',
  identification: 'Sainaithint',
  identificationDescription:
    'Cuireann siad ar chumas úinéir an tsuímh a fháil amach cé tú féin, trí na sonraí teagmhála a iontrálann tú nó líonra do chuideachta a úsáid, chun dul i dteagmháil leat faoina dtairiscintí.',
  doNotSell: 'Ná díol ná comhroinn m\'fhaisnéis phearsanta',
  optedOut: 'Dhiúltaigh tú do dhíol agus do chomhroinnt d\'fhaisnéise pearsanta.',
  blocked: 'Tá an t-ábhar seo blocáilte go dtí go gceadóidh tú {purpose}.',
  enable: 'Ceadaigh {purpose}',
};
