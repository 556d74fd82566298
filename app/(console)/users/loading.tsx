import { UserLookupFormSkeleton } from "@/components/users/lookup-form";
import { UsersPageHeader } from "@/components/users/users-page-header";

export default function UsersLoading() {
  return (
    <>
      <UsersPageHeader />
      <UserLookupFormSkeleton />
    </>
  );
}
