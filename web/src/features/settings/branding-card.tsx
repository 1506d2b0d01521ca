// Branding settings (admins): logo, company name and primary colour. The form fills from the loaded
// values once they arrive (spec section 4); a logo is saved as soon as it is chosen.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ImageUp } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { apiRequest } from '../../lib/api';
import { adminBrandingQueryOptions, defaultPrimaryColor, getCompanyName, type Branding } from '../site/queries';
import { checkLogoFile, readFileAsDataUrl, recommendedLogoSize } from './logo-file';

const hexColor = /^#[0-9a-fA-F]{6}$/;

interface BrandingForm {
  companyName: string;
  primaryColor: string;
  logoUrl: string | null;
}

async function saveBranding(branding: BrandingForm): Promise<void> {
  try {
    await apiRequest('PUT', '/api/admin/branding', branding);
  } catch {
    throw new Error('Failed to update branding settings');
  }
}

export function BrandingCard() {
  const branding = useQuery(adminBrandingQueryOptions());
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
    mutationFn: saveBranding,
    // ['branding'] covers both the admin copy and the public one the layout and landing page show.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['branding'] }),
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
      toast({
        title: 'Upload Failed',
        description: error instanceof Error ? error.message : 'The logo could not be uploaded.',
        variant: 'destructive',
      });
    }
  }

  const colorValid = hexColor.test(form.primaryColor);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Branding</CardTitle>
        <CardDescription>Your logo, company name and colour, shown in the app, the public site and the banner.</CardDescription>
      </CardHeader>
      <CardContent>
        {branding.isPending ? (
          <LoadingState />
        ) : (
          <form onSubmit={submit} className="space-y-6">
            <div className="space-y-2">
              <span className="text-sm font-medium" id="logo-label">
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
                  aria-labelledby="logo-label"
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
              <Label htmlFor="company-name">Company name</Label>
              <Input
                id="company-name"
                maxLength={100}
                placeholder={getCompanyName(null)}
                value={form.companyName}
                onChange={(event) => setForm({ ...form, companyName: event.target.value })}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="primary-color">Primary color</Label>
              <div className="flex items-center gap-3">
                <input
                  type="color"
                  aria-label="Pick primary color"
                  className="h-10 w-14 cursor-pointer rounded-md border bg-background p-1"
                  value={colorValid ? form.primaryColor : defaultPrimaryColor}
                  onChange={(event) => setForm({ ...form, primaryColor: event.target.value })}
                />
                <Input
                  id="primary-color"
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
