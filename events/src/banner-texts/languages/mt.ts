// Maltese (mt): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: 'Użu tal-cookies minn {company}',
  notice:
    'Nużaw il-cookies u teknoloġiji simili biss għall-finijiet li tippermettu intom. Tistgħu tbiddlu l-għażla tagħkom fi kwalunkwe ħin.',
  privacyPolicy: 'Politika tal-privatezza',
  acceptAll: 'Aċċetta kollox',
  rejectAll: 'Irrifjuta kollox',
  customize: 'Ippersonalizza',
  settings: 'Issettjar tal-cookies',
  centreTitle: 'Preferenzi tal-privatezza',
  centreIntro: 'Agħżlu x\'tippermettu. Il-cookies meħtieġa jżommu s-sit jaħdem u huma dejjem attivi.',
  save: 'Salva l-għażliet',
  close: 'Agħlaq',
  alwaysOn: 'Dejjem attivi',
  services: 'Servizzi u cookies',
  necessary: 'Meħtieġa',
  necessaryDescription: 'Meħtieġa biex is-sit jaħdem, pereżempju għas-sigurtà u biex tinżamm din l-għażla.',
  preferences: 'Preferenzi',
  preferencesDescription: 'Jiftakru l-issettjar tagħkom, bħall-lingwa jew ir-reġjun, minn żjara għal oħra.',
  analytics: 'Analitika',
  analyticsDescription: 'Jgħoddu ż-żjarat u juru kif jintuża s-sit, biex ikun jista\' jittejjeb.',
  marketing: 'Marketing',
  marketingDescription: 'Juru reklami rilevanti għalikom u jkejlu kemm jaħdmu tajjeb, fuq dan is-sit u fuq oħrajn.',
  identification: 'Identifikazzjoni',
  identificationDescription:
    'Jippermettu lis-sid tas-sit ikun jaf min intom, permezz tad-dettalji ta\' kuntatt li ddaħħlu jew tan-netwerk tal-kumpanija tagħkom, biex ikun jista\' jikkuntattjakom dwar l-offerti tiegħu.',
  doNotSell: 'Tbigħux u taqsmux l-informazzjoni personali tiegħi',
  optedOut: 'Għażiltu li ma tippermettux il-bejgħ u l-qsim tal-informazzjoni personali tagħkom.',
  blocked: 'Dan il-kontenut huwa mblukkat sakemm tippermettu l-kategorija “{purpose}”.',
  enable: 'Ippermetti {purpose}',
};
