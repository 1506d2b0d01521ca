// Branding settings: logo, company name and primary colour. Owners brand the consent banner of their
// own websites (/api/branding); admins brand the installation, shown in the app and on the public
// site (/api/admin/branding). The form fills from the loaded values once they arrive (spec section
// 4); a logo is saved as soon as it is chosen.
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ImageUp } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { ApiError, apiRequest, getServerMessage } from '../../lib/api';
import {
  adminBrandingQueryOptions,
  defaultPrimaryColor,
  getCompanyName,
  ownerBrandingQueryOptions,
  type Branding,
} from '../site/queries';
import { checkLogoFile, readFileAsDataUrl, recommendedLogoSize } from './logo-file';

const hexColor = /^#[0-9a-fA-F]{6}$/;

interface BrandingForm {
  companyName: string;
  primaryColor: string;
  logoUrl: string | null;
}

export type BrandingScope = 'owner' | 'installation';

interface BrandingTarget {
  title: string;
  description: string;
  url: string;
  query: ReturnType<typeof ownerBrandingQueryOptions>;
  /** What a save refreshes. */
  invalidates: QueryKey;
}

const brandingTargets: Record<BrandingScope, BrandingTarget> = {
  owner: {
    title: 'Banner branding',
    description: "Your logo, company name and colour on your websites' consent banner.",
    url: '/api/branding',
    query: ownerBrandingQueryOptions(),
    invalidates: ownerBrandingQueryOptions().queryKey,
  },
  installation: {
    title: 'Installation branding',
    description: 'The logo, company name and colour of this installation, shown in the app and on the public site.',
    url: '/api/admin/branding',
    query: adminBrandingQueryOptions(),
    // ['branding'] covers the admin copy and the public one the layout and landing page show.
    invalidates: ['branding'],
  },
};

/** A refused save; the api's reason stays available for the upload toast. */
class BrandingSaveError extends Error {
  readonly reason: string | null;
  constructor(reason: string | null) {
    super('Failed to update branding settings');
    this.name = 'BrandingSaveError';
    this.reason = reason;
  }
}

async function saveBranding(url: string, branding: BrandingForm): Promise<void> {
  try {
    await apiRequest('PUT', url, { ...branding, companyName: branding.companyName.trim() });
  } catch (error) {
    throw new BrandingSaveError(error instanceof ApiError ? getServerMessage(error) : null);
  }
}

export function BrandingCard({ scope }: { scope: BrandingScope }) {
  const target = brandingTargets[scope];
  const branding = useQuery(target.query);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [form, setForm] = useState<BrandingForm>({ companyName: '', primaryColor: defaultPrimaryColor, logoUrl: null });
  const filled = useRef(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!branding.data || filled.current) return;
    filled.current = true;
    setForm(toForm(branding.data));
  }, [branding.data]);

  const save = useMutation({
    mutationFn: (next: BrandingForm) => saveBranding(target.url, next),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: target.invalidates }),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(form, {
      onSuccess: () => toast({ title: 'Settings Updated', description: 'Your branding settings have been saved.' }),
      onError: () => toast({ title: 'Error', description: 'Failed to update branding settings.', variant: 'destructive' }),
    });
  }

  async function uploadLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkLogoFile(file);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    try {
      const logoUrl = await readFileAsDataUrl(file);
      const next = { ...form, logoUrl };
      await save.mutateAsync(next);
      setForm(next);
      toast({ title: 'Success!', description: 'Your logo has been uploaded successfully!' });
    } catch (error) {
      const description =
        error instanceof BrandingSaveError ? (error.reason ?? error.message) : error instanceof Error ? error.message : 'The logo could not be uploaded.';
      toast({ title: 'Upload Failed', description, variant: 'destructive' });
    }
  }

  const colorValid = hexColor.test(form.primaryColor);
  const ids = { title: `${scope}-branding-title`, logo: `${scope}-logo-label`, company: `${scope}-company-name`, color: `${scope}-primary-color` };

  return (
    <Card role="region" aria-labelledby={ids.title}>
      <CardHeader>
        <CardTitle id={ids.title}>{target.title}</CardTitle>
        <CardDescription>{target.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {branding.isPending ? (
          <LoadingState />
        ) : branding.isError ? (
          <p className="text-sm text-muted-foreground">{getServerMessage(branding.error)}</p>
        ) : (
          <form onSubmit={submit} className="space-y-6">
            <div className="space-y-2">
              <span className="text-sm font-medium" id={ids.logo}>
                Logo
              </span>
              <div className="flex flex-wrap items-center gap-4">
                <div className="flex h-16 w-48 items-center justify-center rounded-md border bg-muted/40 p-2">
                  {form.logoUrl ? (
                    <img src={form.logoUrl} alt="Current logo" className="max-h-full max-w-full object-contain" />
                  ) : (
                    <span className="text-sm text-muted-foreground">No logo</span>
                  )}
                </div>
                <input
                  ref={fileInput}
                  type="file"
                  accept="image/*"
                  className="sr-only"
                  aria-labelledby={ids.logo}
                  onChange={(event) => void uploadLogo(event)}
                />
                <Button type="button" variant="outline" disabled={save.isPending} onClick={() => fileInput.current?.click()}>
                  <ImageUp aria-hidden />
                  Upload logo
                </Button>
              </div>
              <p className="text-xs text-muted-foreground">
                PNG, JPG or SVG, at most 2MB. Recommended size {recommendedLogoSize} pixels.
              </p>
            </div>
            <div className="space-y-2">
              <Label htmlFor={ids.company}>Company name</Label>
              <Input
                id={ids.company}
                required
                maxLength={100}
                placeholder={getCompanyName(null)}
                value={form.companyName}
                onChange={(event) => setForm({ ...form, companyName: event.target.value })}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor={ids.color}>Primary color</Label>
              <div className="flex items-center gap-3">
                <input
                  type="color"
                  aria-label="Pick primary color"
                  className="h-10 w-14 cursor-pointer rounded-md border bg-background p-1"
                  value={colorValid ? form.primaryColor : defaultPrimaryColor}
                  onChange={(event) => setForm({ ...form, primaryColor: event.target.value })}
                />
                <Input
                  id={ids.color}
                  className="max-w-32 font-mono"
                  value={form.primaryColor}
                  aria-invalid={!colorValid}
                  onChange={(event) => setForm({ ...form, primaryColor: event.target.value })}
                />
              </div>
              {!colorValid ? <p className="text-xs text-destructive">Use a hex colour such as #2563eb.</p> : null}
            </div>
            <Button type="submit" disabled={save.isPending || !colorValid}>
              {save.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

function toForm(branding: Branding): BrandingForm {
  return {
    companyName: branding.companyName ?? '',
    primaryColor: branding.primaryColor && hexColor.test(branding.primaryColor) ? branding.primaryColor : defaultPrimaryColor,
    logoUrl: branding.logoUrl ?? null,
  };
}
