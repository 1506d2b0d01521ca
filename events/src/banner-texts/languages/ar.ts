// Arabic (ar): the banner and preference-centre texts, written by us from the English reference.
import type { BannerTexts } from '../texts';

export const texts: BannerTexts = {
  title: 'استخدام {company} لملفات تعريف الارتباط',
  notice:
    'نستخدم ملفات تعريف الارتباط والتقنيات المشابهة للأغراض التي تسمح بها فقط. ويمكنك تغيير اختيارك في أي وقت.',
  privacyPolicy: 'سياسة الخصوصية',
  acceptAll: 'قبول الكل',
  rejectAll: 'رفض الكل',
  customize: 'تخصيص',
  settings: 'إعدادات ملفات تعريف الارتباط',
  centreTitle: 'تفضيلات الخصوصية',
  centreIntro: 'اختر ما تسمح به. تضمن ملفات تعريف الارتباط الضرورية عمل الموقع، وهي مفعّلة دائمًا.',
  save: 'حفظ الاختيارات',
  close: 'إغلاق',
  alwaysOn: 'مفعّلة دائمًا',
  services: 'الخدمات وملفات تعريف الارتباط',
  necessary: 'الضرورية',
  necessaryDescription: 'لازمة لعمل الموقع، مثل الحماية وتذكّر هذا الاختيار.',
  preferences: 'التفضيلات',
  preferencesDescription: 'تتذكّر إعداداتك، مثل اللغة أو المنطقة، من زيارة إلى أخرى.',
  analytics: 'التحليلات',
  analyticsDescription: 'تحصي الزيارات وتبيّن كيفية استخدام الموقع، بهدف تحسينه.',
  marketing: 'التسويق',
  marketingDescription: 'تعرض لك إعلانات ملائمة وتقيس مدى فعاليتها، على هذا الموقع وعلى غيره.',
  identification: 'تحديد الهوية',
  identificationDescription:
    'تُعرّف مالك الموقع بهويتك، من خلال بيانات الاتصال التي تُدخلها أو شبكة شركتك، ليتواصل معك بشأن عروضه.',
  doNotSell: 'عدم بيع معلوماتي الشخصية أو مشاركتها',
  optedOut: 'لقد اخترت عدم السماح ببيع معلوماتك الشخصية أو مشاركتها.',
  blocked: 'هذا المحتوى محظور إلى أن تسمح بفئة {purpose}.',
  enable: 'السماح بفئة {purpose}',
};
