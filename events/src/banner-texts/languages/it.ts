// Italian (it): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} utilizza i cookie',
  notice:
    'Utilizziamo cookie e tecnologie simili solo per le finalità che autorizza. Può modificare la sua scelta in qualsiasi momento.',
  privacyPolicy: 'Informativa sulla privacy',
  acceptAll: 'Accetta tutto',
  rejectAll: 'Rifiuta tutto',
  customize: 'Personalizza',
  settings: 'Impostazioni dei cookie',
  centreTitle: 'Preferenze sulla privacy',
  centreIntro:
    'Scelga cosa autorizzare. I cookie necessari garantiscono il funzionamento del sito e sono sempre attivi.',
  save: 'Salva le scelte',
  close: 'Chiudi',
  alwaysOn: 'Sempre attivi',
  services: 'Servizi e cookie',
  necessary: 'Necessari',
  necessaryDescription:
    'Indispensabili per il funzionamento del sito, ad esempio per la sicurezza e per ricordare questa scelta.',
  preferences: 'Preferenze',
  preferencesDescription: 'Ricordano le sue impostazioni, come la lingua o la regione, da una visita all\'altra.',
  analytics: 'Statistiche',
  analyticsDescription: 'Contano le visite e mostrano come viene utilizzato il sito, per poterlo migliorare.',
  marketing: 'Marketing',
  marketingDescription: 'Le mostrano annunci pertinenti e ne misurano l\'efficacia, su questo sito e su altri.',
  identification: 'Identificazione',
  identificationDescription:
    'Consentono al titolare del sito di sapere chi è, tramite i dati di contatto che inserisce o la rete della sua azienda, per contattarla in merito alle proprie offerte.',
  doNotSell: 'Non vendere né condividere le mie informazioni personali',
  optedOut: 'Ha rifiutato la vendita e la condivisione delle sue informazioni personali.',
  blocked: 'Questo contenuto è bloccato finché non autorizza la categoria «{purpose}».',
  enable: 'Autorizza «{purpose}»',
};
