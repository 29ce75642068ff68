import { useNavigate } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { protocolPath } from '../api';
import { useCreateProtocol } from '../hooks/use-protocol-mutations';
import { ProtocolEditor } from './protocol-editor';

/** A protocol made directly: its name, its kind, and that kind's settings in the tool's own form. */
export function NewProtocolPage({ projectUuid }: { projectUuid: string }) {
  const navigate = useNavigate();
  const create = useCreateProtocol(projectUuid);
  const permissions = useProjectPermissions();
  const list = `/projects/${projectUuid}/protocols`;
  return (
    <PageContainer className="max-w-3xl">
      <PageHeader
        title="New protocol"
        description="Settings to run on many videos. Regions and zones are drawn on a video: save them with “Save as protocol” from the Movement Detector or the Location Tracker."
      />
      <Card>
        <CardContent>
          {permissions.canEditContent ? (
            <ProtocolEditor
              initialName=""
              initialParameters={{}}
              submitLabel="Save protocol"
              pending={create.isPending}
              onSave={async (draft) => {
                const protocol = await create.mutateAsync(draft);
                void navigate(protocolPath(projectUuid, protocol.protocol_uuid));
              }}
              onCancel={() => void navigate(list)}
            />
          ) : (
            <p className="text-muted-foreground text-sm">Members and up make protocols; you can read them.</p>
          )}
        </CardContent>
      </Card>
    </PageContainer>
  );
}
