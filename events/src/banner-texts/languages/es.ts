// Spanish (es): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} utiliza cookies',
  notice:
    'Utilizamos cookies y tecnologías similares solo para los fines que usted permita. Puede cambiar su elección en cualquier momento.',
  privacyPolicy: 'Política de privacidad',
  acceptAll: 'Aceptar todo',
  rejectAll: 'Rechazar todo',
  customize: 'Personalizar',
  settings: 'Configuración de cookies',
  centreTitle: 'Preferencias de privacidad',
  centreIntro:
    'Elija lo que desea permitir. Las cookies necesarias hacen que el sitio funcione y están siempre activas.',
  save: 'Guardar selección',
  close: 'Cerrar',
  alwaysOn: 'Siempre activas',
  services: 'Servicios y cookies',
  necessary: 'Necesarias',
  necessaryDescription:
    'Imprescindibles para que el sitio funcione, por ejemplo, para la seguridad o para recordar esta elección.',
  preferences: 'Preferencias',
  preferencesDescription: 'Recuerdan su configuración, como el idioma o la región, de una visita a otra.',
  analytics: 'Analítica',
  analyticsDescription: 'Cuentan las visitas y muestran cómo se usa el sitio, para poder mejorarlo.',
  marketing: 'Marketing',
  marketingDescription: 'Le muestran anuncios relevantes y miden su eficacia, en este sitio y en otros.',
  identification: 'Identificación',
  identificationDescription:
    'Permiten al propietario del sitio saber quién es usted, a partir de los datos de contacto que introduzca o de la red de su empresa, para ponerse en contacto con usted sobre sus ofertas.',
  doNotSell: 'No vender ni compartir mi información personal',
  optedOut: 'Ha solicitado que no se venda ni se comparta su información personal.',
  blocked: 'Este contenido está bloqueado hasta que permita la categoría {purpose}.',
  enable: 'Permitir {purpose}',
};
