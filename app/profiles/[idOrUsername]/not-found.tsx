import Link from "next/link";

export default function ProfileNotFound() {
  return (
    <div className="card error-state">
      <h1>Profile not found</h1>
      <p className="muted">Nobody goes by that name or id here.</p>
      <Link href="/" className="button">
        Explore claims
      </Link>
    </div>
  );
}
