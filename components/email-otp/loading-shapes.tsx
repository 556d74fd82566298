import { Card, Skeleton } from "@/components/ui/card";

/*
 * The email OTP card's shape before the service answers. No client component is imported here: email-otp/loading.tsx
 * imports it, and a client module reached from a loading.tsx is sent again in first-load JS beside the page's copy.
 */

/** The card's field rows (./email-otp-card.tsx). */
export const otpFieldRows = "mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm";

/** The card's shape while the service is asked: heading, button, six field rows and the note. */
export function EmailOtpCardSkeleton() {
  return (
    <Card>
      <div className="flex items-center justify-between gap-4">
        <Skeleton className="h-6 w-28" />
        <Skeleton className="h-9 w-44" />
      </div>
      <div className={otpFieldRows}>
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="contents">
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-5 w-48 max-w-full" />
          </div>
        ))}
      </div>
      <Skeleton className="mt-4 h-4 w-80 max-w-full" />
    </Card>
  );
}
