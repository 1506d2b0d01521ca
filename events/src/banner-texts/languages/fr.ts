// French (fr): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} utilise des cookies',
  notice:
    'Nous utilisons des cookies et des technologies similaires uniquement aux fins que vous autorisez. Vous pouvez modifier votre choix à tout moment.',
  privacyPolicy: 'Politique de confidentialité',
  acceptAll: 'Tout accepter',
  rejectAll: 'Tout refuser',
  customize: 'Personnaliser',
  settings: 'Paramètres des cookies',
  centreTitle: 'Préférences de confidentialité',
  centreIntro:
    'Choisissez ce que vous autorisez. Les cookies nécessaires assurent le bon fonctionnement du site et restent toujours actifs.',
  save: 'Enregistrer mes choix',
  close: 'Fermer',
  alwaysOn: 'Toujours actifs',
  services: 'Services et cookies',
  necessary: 'Nécessaires',
  necessaryDescription:
    'Indispensables au fonctionnement du site, par exemple pour la sécurité et pour mémoriser ce choix.',
  preferences: 'Préférences',
  preferencesDescription: 'Mémorisent vos réglages, comme la langue ou la région, d\'une visite à l\'autre.',
  analytics: 'Statistiques',
  analyticsDescription: 'Comptent les visites et montrent comment le site est utilisé, afin de pouvoir l\'améliorer.',
  marketing: 'Marketing',
  marketingDescription:
    'Vous présentent des publicités pertinentes et mesurent leur efficacité, sur ce site et ailleurs.',
  identification: 'Identification',
  identificationDescription:
    'Permettent au propriétaire du site de savoir qui vous êtes, grâce aux coordonnées que vous saisissez ou au réseau de votre entreprise, afin de vous contacter au sujet de ses offres.',
  doNotSell: 'Ne pas vendre ni partager mes informations personnelles',
  optedOut: 'Vous avez refusé la vente et le partage de vos informations personnelles.',
  blocked: 'Ce contenu est bloqué tant que vous n\'autorisez pas la catégorie « {purpose} ».',
  enable: 'Autoriser « {purpose} »',
};
