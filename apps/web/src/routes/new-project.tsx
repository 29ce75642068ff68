import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { NewProjectForm } from '@/features/projects/components/new-project-form';

export function Component() {
  return (
    <PageContainer className="max-w-2xl">
      <PageHeader title="New project" description="A project holds the subjects, videos and analyses of one study." />
      <NewProjectForm />
    </PageContainer>
  );
}
