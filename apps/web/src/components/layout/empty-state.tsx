import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';

/** A page's "nothing here yet" card: what is missing, and a link to where it is made. */
export function EmptyState({
  icon,
  title,
  text,
  action,
}: {
  icon?: ReactNode;
  title: string;
  text?: string;
  action?: ReactNode;
}) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-2 py-10 text-center" data-testid="empty-state">
        {icon ? <div className="text-muted-foreground [&_svg]:size-7">{icon}</div> : null}
        <p className="font-medium">{title}</p>
        {text ? <p className="max-w-md text-muted-foreground text-sm">{text}</p> : null}
        {action ? <div className="pt-2">{action}</div> : null}
      </CardContent>
    </Card>
  );
}
