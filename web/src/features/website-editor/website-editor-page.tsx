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
import { cn } from '../../lib/cn';
import { checkLogoFile, readFileAsDataUrl } from '../settings/logo-file';
import { adminWebsiteContentQueryOptions, withDefaultContent, type WebsiteContent } from '../site/queries';

type TextField = Exclude<keyof WebsiteContent, 'heroBackgroundImage'>;

interface FieldSpec {
  field: TextField;
  label: string;
  multiline?: boolean;
}

const sections: { title: string; description: string; fields: FieldSpec[] }[] = [
  {
    title: 'Hero',
    description: 'The first thing visitors see.',
    fields: [
      { field: 'heroTitle', label: 'Title' },
      { field: 'heroSubtitle', label: 'Subtitle', multiline: true },
      { field: 'heroButtonText', label: 'Button text' },
    ],
  },
  {
    title: 'About',
    description: 'A short introduction.',
    fields: [
      { field: 'aboutTitle', label: 'Title' },
      { field: 'aboutText', label: 'Text', multiline: true },
    ],
  },
  {
    title: 'Features',
    description: 'The three steps of how it works.',
    fields: [
      { field: 'featuresTitle', label: 'Section title' },
      { field: 'feature1Title', label: 'Feature 1 title' },
      { field: 'feature1Text', label: 'Feature 1 text', multiline: true },
      { field: 'feature2Title', label: 'Feature 2 title' },
      { field: 'feature2Text', label: 'Feature 2 text', multiline: true },
      { field: 'feature3Title', label: 'Feature 3 title' },
      { field: 'feature3Text', label: 'Feature 3 text', multiline: true },
    ],
  },
  {
    title: 'Call to action',
    description: 'The closing invitation.',
    fields: [
      { field: 'ctaTitle', label: 'Title' },
      { field: 'ctaText', label: 'Text', multiline: true },
      { field: 'ctaButtonText', label: 'Button text' },
    ],
  },
  {
    title: 'Footer',
    description: 'Shown under the brand in the footer.',
    fields: [{ field: 'footerText', label: 'Footer text', multiline: true }],
  },
];

export function WebsiteEditorPage() {
  const content = useQuery(adminWebsiteContentQueryOptions());
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [form, setForm] = useState<WebsiteContent | null>(null);
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
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
                {section.fields.map(({ field, label, multiline }) => {
                  const id = `content-${field}`;
                  return (
                    <div key={field} className="space-y-2">
                      <Label htmlFor={id}>{label}</Label>
                      {multiline ? (
                        <Textarea id={id} maxLength={2000} value={form[field]} onChange={(event) => setField(field, event.target.value)} />
                      ) : (
                        <Input id={id} maxLength={200} value={form[field]} onChange={(event) => setField(field, event.target.value)} />
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
            <CardHeader className="flex-row items-center justify-between gap-4">
              <div>
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
              <div className="flex justify-center rounded-md bg-muted/40 p-4">
                <iframe
                  key={previewVersion}
                  title="Landing page preview"
                  src="/"
                  className={cn('h-[640px] rounded-md border bg-background transition-all', device === 'mobile' ? 'w-[375px]' : 'w-full')}
                />
              </div>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </>
  );
}
