import { ImageUp, Loader2 } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { Project } from '../api';
import { useUploadProjectLogo } from '../hooks/use-project-mutations';
import { ProjectLogo } from './project-logo';

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'];

/** The logo with an upload button: pick a file, see the preview, confirm. */
export function ProjectLogoUpload({ project, canEdit }: { project: Project; canEdit: boolean }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const upload = useUploadProjectLogo(project.project_uuid);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!picked) return;
    if (!LOGO_TYPES.includes(picked.type)) return void toast.error('Choose a PNG, JPEG, WebP, GIF or SVG image.');
    if (picked.size > LOGO_MAX_BYTES) return void toast.error('The logo must be 5 MB or smaller.');
    setFile(picked);
  };

  return (
    <div className="relative shrink-0">
      <ProjectLogo project={project} className="size-16 rounded-xl text-2xl" />
      {canEdit ? (
        <>
          <label htmlFor={inputId} className="sr-only">
            Project logo
          </label>
          <input
            id={inputId}
            ref={inputRef}
            type="file"
            accept={LOGO_TYPES.join(',')}
            className="sr-only"
            onChange={onPick}
            tabIndex={-1}
          />
          <Button
            size="icon-sm"
            variant="outline"
            className="absolute -right-2 -bottom-2 rounded-full bg-background shadow-sm"
            aria-label="Change logo"
            onClick={() => inputRef.current?.click()}
          >
            <ImageUp aria-hidden="true" />
          </Button>
        </>
      ) : null}
      <Dialog open={!!file} onOpenChange={(open) => !open && setFile(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>New project logo</DialogTitle>
            <DialogDescription>
              This is how the logo will look in the sidebar and on the project page.
            </DialogDescription>
          </DialogHeader>
          <div className="flex items-center justify-center gap-6 py-2">
            {preview ? (
              <>
                <img src={preview} alt="Logo preview" className="size-24 rounded-xl border object-cover" />
                <img src={preview} alt="" className="size-8 rounded-lg border object-cover" />
              </>
            ) : null}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setFile(null)}>
              Cancel
            </Button>
            <Button
              disabled={upload.isPending}
              onClick={() => file && upload.mutate(file, { onSuccess: () => setFile(null) })}
            >
              {upload.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
              Upload logo
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
