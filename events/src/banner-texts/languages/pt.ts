// Portuguese (pt): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: '{company} utiliza cookies',
  notice:
    'Utilizamos cookies e tecnologias semelhantes apenas para as finalidades que autorizar. Pode alterar a sua escolha a qualquer momento.',
  privacyPolicy: 'Política de privacidade',
  acceptAll: 'Aceitar tudo',
  rejectAll: 'Rejeitar tudo',
  customize: 'Personalizar',
  settings: 'Definições de cookies',
  centreTitle: 'Preferências de privacidade',
  centreIntro:
    'Escolha o que autoriza. Os cookies necessários mantêm o site a funcionar e estão sempre ativos.',
  save: 'Guardar escolhas',
  close: 'Fechar',
  alwaysOn: 'Sempre ativos',
  services: 'Serviços e cookies',
  necessary: 'Necessários',
  necessaryDescription:
    'Indispensáveis ao funcionamento do site, por exemplo para a segurança e para memorizar esta escolha.',
  preferences: 'Preferências',
  preferencesDescription: 'Memorizam as suas definições, como o idioma ou a região, entre visitas.',
  analytics: 'Análise',
  analyticsDescription: 'Contam as visitas e mostram como o site é utilizado, para que possa ser melhorado.',
  marketing: 'Marketing',
  marketingDescription: 'Mostram-lhe anúncios relevantes e medem a sua eficácia, neste site e noutros.',
  identification: 'Identificação',
  identificationDescription:
    'Permitem ao proprietário do site saber quem é, através dos dados de contacto que introduzir ou da rede da sua empresa, para o contactar sobre as suas ofertas.',
  doNotSell: 'Não vender nem partilhar os meus dados pessoais',
  optedOut: 'Optou por não permitir a venda e a partilha dos seus dados pessoais.',
  blocked: 'Este conteúdo está bloqueado até autorizar a categoria {purpose}.',
  enable: 'Autorizar {purpose}',
};
