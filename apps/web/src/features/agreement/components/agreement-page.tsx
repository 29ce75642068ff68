import { Scale } from 'lucide-react';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { VideoPicker } from '@/features/videos/components/video-picker';
import { patchSearchParams } from '@/lib/search-params';
import { readAgreementSearch } from '../links';
import { encodeScoring, type Scoring } from '../scorings';
import { AgreementWorkspace } from './agreement-workspace';

/**
 * The Agreement view (ADR 010): pick a subject and a video, then two scorings of it; both are kept in the URL (an
 * uploaded CSV only on the page), so other pages can open it with the scorings chosen.
 */
export function AgreementPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const target = readAgreementSearch(params);
  const keepScorings = useCallback(
    (reference: Scoring, candidate: Scoring) =>
      setParams(
        (prev) => patchSearchParams(prev, { reference: encodeScoring(reference), candidate: encodeScoring(candidate) }),
        {
          replace: true,
        },
      ),
    [setParams],
  );

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Agreement"
        description="How well two scorings of a video agree: events within a tolerance, and behaviour frame by frame."
      />
      <VideoPicker
        projectUuid={projectUuid}
        idPrefix="agreement"
        subjectUuid={target.subject}
        videoUuid={target.video}
        onSubject={(uuid) =>
          setParams((prev) => patchSearchParams(prev, { subject: uuid, video: null, reference: null, candidate: null }))
        }
        onVideo={(uuid) =>
          setParams((prev) => patchSearchParams(prev, { video: uuid, reference: null, candidate: null }))
        }
        purpose="Agreement compares two scorings of one of a subject’s videos."
        icon={<Scale aria-hidden="true" />}
      >
        {(video) => (
          <AgreementWorkspace
            key={video.video_uuid}
            projectUuid={projectUuid}
            video={video}
            initialReference={target.reference}
            initialCandidate={target.candidate}
            onScorings={keepScorings}
          />
        )}
      </VideoPicker>
    </PageContainer>
  );
}
