// The Website Editor (/website-editor, admins): edits the public landing page's copy and hero image,
// previews it at desktop or mobile width, and saves everything with one PUT.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, ImageUp, Monitor, Smartphone, Trash } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { PageHeader } from '../../components/page-header';
import { ErrorState, LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { Textarea } from '../../components/ui/textarea';
import { apiRequest, getServerMessage } from '../../lib/api';
import { checkLogoFile, readFileAsDataUrl } from '../settings/logo-file';
import { adminWebsiteContentQueryOptions, withDefaultContent, type WebsiteContent } from '../site/queries';
import { LandingPreview, type PreviewDevice } from './landing-preview';

type TextField = Exclude<keyof WebsiteContent, 'heroBackgroundImage'>;

interface FieldSpec {
  field: TextField;
  /** Unique on the page, so every field has its own accessible name. */
  label: string;
  /** The api's bound for the field. */
  maxLength: number;
  /** Titles and button texts may not be blank; body texts may. */
  required?: boolean;
  multiline?: boolean;
}

const title = (field: TextField, label: string, maxLength = 120): FieldSpec => ({ field, label, maxLength, required: true });
const text = (field: TextField, label: string, maxLength = 500): FieldSpec => ({ field, label, maxLength, multiline: true });

const sections: { title: string; description: string; fields: FieldSpec[] }[] = [
  {
    title: 'Hero',
    description: 'The first thing visitors see.',
    fields: [title('heroTitle', 'Hero title'), text('heroSubtitle', 'Hero subtitle'), title('heroButtonText', 'Hero button text', 40)],
  },
  {
    title: 'About',
    description: 'A short introduction.',
    fields: [title('aboutTitle', 'About title'), text('aboutText', 'About text', 2000)],
  },
  {
    title: 'Features',
    description: 'The three steps of how it works.',
    fields: [
      title('featuresTitle', 'Features section title'),
      title('feature1Title', 'Feature 1 title', 80),
      text('feature1Text', 'Feature 1 text'),
      title('feature2Title', 'Feature 2 title', 80),
      text('feature2Text', 'Feature 2 text'),
      title('feature3Title', 'Feature 3 title', 80),
      text('feature3Text', 'Feature 3 text'),
    ],
  },
  {
    title: 'Call to action',
    description: 'The closing invitation.',
    fields: [
      title('ctaTitle', 'Call to action title'),
      text('ctaText', 'Call to action text'),
      title('ctaButtonText', 'Call to action button text', 40),
    ],
  },
  {
    title: 'Footer',
    description: 'Shown under the brand in the footer.',
    fields: [text('footerText', 'Footer text')],
  },
];

export function WebsiteEditorPage() {
  const content = useQuery(adminWebsiteContentQueryOptions());
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [form, setForm] = useState<WebsiteContent | null>(null);
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const [previewVersion, setPreviewVersion] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (content.data && form === null) setForm(withDefaultContent(content.data));
  }, [content.data, form]);

  const save = useMutation({
    mutationFn: (next: WebsiteContent) => apiRequest('PUT', '/api/admin/website-content', next),
    // ['website-content'] covers the admin copy and the public one the landing page reads.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['website-content'] }),
  });

  if (content.isPending) return <LoadingState />;
  if (content.isError) return <ErrorState title="Website content could not be loaded." error={content.error} />;
  if (form === null) return <LoadingState />;

  const setField = (field: TextField, value: string) => setForm({ ...form, [field]: value });

  function saveChanges() {
    if (!form) return;
    const blank = sections.flatMap((section) => section.fields).find(({ field, required }) => required && form[field].trim() === '');
    if (blank) {
      toast({ title: `Failed to update content: ${blank.label} must not be blank`, variant: 'destructive' });
      return;
    }
    save.mutate(form, {
      onSuccess: () => {
        toast({ title: 'Website content updated successfully!' });
        setPreviewVersion((version) => version + 1);
      },
      onError: (error) =>
        toast({ title: `Failed to update content: ${getServerMessage(error)}`, variant: 'destructive' }),
    });
  }

  async function chooseHeroImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !form) return;
    const problem = checkLogoFile(file);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    const heroBackgroundImage = await readFileAsDataUrl(file);
    setForm({ ...form, heroBackgroundImage });
  }

  return (
    <>
      <PageHeader
        title="Website Editor"
        description="Edit the public landing page."
        action={
          <div className="flex gap-2">
            <Button asChild variant="outline">
              <a href="/" target="_blank" rel="noreferrer">
                <ExternalLink aria-hidden />
                Preview
              </a>
            </Button>
            <Button onClick={saveChanges} disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        }
      />
      <Tabs defaultValue="content">
        <TabsList>
          <TabsTrigger value="content">Content</TabsTrigger>
          <TabsTrigger value="images">Images</TabsTrigger>
          <TabsTrigger value="design">Design</TabsTrigger>
        </TabsList>

        <TabsContent value="content" className="grid gap-6 lg:grid-cols-2">
          {sections.map((section) => (
            <Card key={section.title}>
              <CardHeader>
                <CardTitle>{section.title}</CardTitle>
                <CardDescription>{section.description}</CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                {section.fields.map(({ field, label, multiline, maxLength, required }) => {
                  const id = `content-${field}`;
                  return (
                    <div key={field} className="space-y-2">
                      <Label htmlFor={id}>{label}</Label>
                      {multiline ? (
                        <Textarea id={id} maxLength={maxLength} value={form[field]} onChange={(event) => setField(field, event.target.value)} />
                      ) : (
                        <Input
                          id={id}
                          maxLength={maxLength}
                          required={required}
                          aria-invalid={required && form[field].trim() === ''}
                          value={form[field]}
                          onChange={(event) => setField(field, event.target.value)}
                        />
                      )}
                    </div>
                  );
                })}
              </CardContent>
            </Card>
          ))}
        </TabsContent>

        <TabsContent value="images">
          <Card>
            <CardHeader>
              <CardTitle>Hero background</CardTitle>
              <CardDescription>Shown behind the hero title, darkened for legibility. At most 2MB.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <div className="flex h-48 items-center justify-center overflow-hidden rounded-md border bg-muted/40">
                {form.heroBackgroundImage ? (
                  <img src={form.heroBackgroundImage} alt="Hero background" className="h-full w-full object-cover" />
                ) : (
                  <span className="text-sm text-muted-foreground">No background image</span>
                )}
              </div>
              <input
                ref={fileInput}
                type="file"
                accept="image/*"
                className="sr-only"
                aria-label="Hero background image"
                onChange={(event) => void chooseHeroImage(event)}
              />
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => fileInput.current?.click()}>
                  <ImageUp aria-hidden />
                  Upload image
                </Button>
                {form.heroBackgroundImage ? (
                  <Button variant="ghost" onClick={() => setForm({ ...form, heroBackgroundImage: null })}>
                    <Trash aria-hidden />
                    Remove image
                  </Button>
                ) : null}
              </div>
              <p className="text-xs text-muted-foreground">The image is published when you press Save Changes.</p>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="design">
          <Card>
            <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="space-y-1.5">
                <CardTitle>Live preview</CardTitle>
                <CardDescription>The published landing page; save to see your changes here.</CardDescription>
              </div>
              <div className="flex gap-1" role="group" aria-label="Preview size">
                <Button
                  variant={device === 'desktop' ? 'default' : 'outline'}
                  size="sm"
                  aria-pressed={device === 'desktop'}
                  onClick={() => setDevice('desktop')}
                >
                  <Monitor aria-hidden />
                  Desktop
                </Button>
                <Button
                  variant={device === 'mobile' ? 'default' : 'outline'}
                  size="sm"
                  aria-pressed={device === 'mobile'}
                  onClick={() => setDevice('mobile')}
                >
                  <Smartphone aria-hidden />
                  Mobile
                </Button>
              </div>
            </CardHeader>
            <CardContent>
              <div className="rounded-md bg-muted/40 p-2 sm:p-4">
                <LandingPreview device={device} version={previewVersion} />
              </div>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </>
  );
}
