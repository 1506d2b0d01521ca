// The Preview tab's preference centre: what a visitor sees on choosing Customize, in the language the
// owner picks, built from the website's real widget config (its texts with the owner's wording, the
// purposes it asks for and the services under them, written right to left where the language is).
// A still picture: its switches and buttons do nothing.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { getServerMessage } from '../../lib/api';
import { bannerLanguagesByName, formatLanguageName, type BannerLanguage } from '../../lib/banner-languages';
import { cn } from '../../lib/cn';
import type { BannerTheme } from '../../lib/snippet';
import { widgetConfigQueryOptions, type WidgetConfig, type WidgetConfigService } from './queries';

/** A text of the config with `{company}` and `{purpose}` filled in, as the widget fills them (as text, never markup). */
export function fillBannerText(template: string | undefined, company: string, purpose = ''): string {
  return (template ?? '').replace(/\{company\}/g, company).replace(/\{purpose\}/g, purpose);
}

export function PreferenceCentrePreview({ embedCode, theme }: { embedCode: string; theme: BannerTheme }) {
  const id = useId();
  // null: the website's default language, which the config names once it arrives.
  const [language, setLanguage] = useState<BannerLanguage | null>(null);
  const config = useQuery({ ...widgetConfigQueryOptions(embedCode, language), placeholderData: keepPreviousData });
  const shown = language ?? config.data?.language ?? '';

  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h3 id={`${id}-title`} className="font-medium">
            Preference centre
          </h3>
          <p className="text-sm text-muted-foreground">
            What visitors see when they choose to customize, with your wording. Its switches and buttons do nothing here.
          </p>
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-language`}>Preview language</Label>
          <Select value={shown} onValueChange={(next) => setLanguage(next as BannerLanguage)}>
            <SelectTrigger id={`${id}-language`} className="w-64">
              <SelectValue placeholder="Default language" />
            </SelectTrigger>
            <SelectContent>
              {bannerLanguagesByName.map((code) => (
                <SelectItem key={code} value={code}>
                  {formatLanguageName(code)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      {config.isPending ? (
        <LoadingState />
      ) : config.isError ? (
        <p role="alert" className="rounded-md border p-4 text-sm text-muted-foreground">
          The preference centre could not be loaded: {getServerMessage(config.error)}
        </p>
      ) : (
        <PreferenceCentreMock config={config.data} theme={theme} />
      )}
    </section>
  );
}

export function PreferenceCentreMock({ config, theme }: { config: WidgetConfig; theme: BannerTheme }) {
  const t = (key: string) => fillBannerText(config.texts[key], config.companyName);
  const dark = theme === 'dark';
  const servicesOf = (purpose: string) => config.services.filter((service) => service.purpose === purpose);
  const inert = 'disabled:cursor-default disabled:opacity-100';

  return (
    <div
      role="region"
      aria-label="Preference centre preview"
      lang={config.language}
      dir={config.dir}
      className={cn(
        'rounded-lg border p-5 shadow-sm',
        dark ? 'border-slate-700 bg-slate-900 text-slate-100' : 'bg-white text-slate-900',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <h4 className="text-lg font-semibold">{t('centreTitle')}</h4>
        <span aria-hidden className="text-xl leading-none opacity-70">
          ×
        </span>
      </div>
      <p className="mt-2 text-sm opacity-80">{t('centreIntro')}</p>
      <ul className={cn('mt-4 divide-y', dark ? 'divide-slate-700' : 'divide-slate-200')}>
        <PurposeRow
          name={t('necessary')}
          description={t('necessaryDescription')}
          servicesHeading={t('services')}
          services={servicesOf('necessary')}
          control={<span className="text-sm font-semibold">{t('alwaysOn')}</span>}
        />
        {config.purposes.map((purpose) => (
          <PurposeRow
            key={purpose}
            name={t(purpose)}
            description={t(`${purpose}Description`)}
            servicesHeading={t('services')}
            services={servicesOf(purpose)}
            control={<Switch checked={false} disabled aria-label={t(purpose)} className={inert} />}
          />
        ))}
      </ul>
      {/* Reject All and Accept All look the same, as in the widget: no nudging. */}
      <div className="mt-5 grid grid-cols-1 gap-2 sm:grid-cols-3">
        {(['rejectAll', 'save', 'acceptAll'] as const).map((key) => (
          <Button
            key={key}
            type="button"
            variant="outline"
            disabled
            className={cn('h-auto min-h-10 whitespace-normal', inert, dark && 'border-slate-600 bg-transparent text-slate-100')}
            style={{ borderColor: config.primaryColor }}
          >
            {t(key)}
          </Button>
        ))}
      </div>
    </div>
  );
}

function PurposeRow({
  name,
  description,
  servicesHeading,
  services,
  control,
}: {
  name: string;
  description: string;
  servicesHeading: string;
  services: readonly WidgetConfigService[];
  control: ReactNode;
}) {
  return (
    <li className="space-y-1 py-3">
      <div className="flex items-center justify-between gap-3">
        <h5 className="font-medium">{name}</h5>
        {control}
      </div>
      <p className="text-sm opacity-80">{description}</p>
      {services.length > 0 ? (
        <div className="pt-1 text-sm">
          <p className="text-xs font-medium opacity-80">
            {servicesHeading} ({services.length})
          </p>
          <ul className="list-disc ps-5">
            {services.map((service, index) => (
              <li key={index}>
                <span className="font-medium">{service.name}</span>
                {service.description ? `: ${service.description}` : ''}
                {service.cookies.length > 0 ? ` (${service.cookies.join(', ')})` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}
