import Link from "next/link";

export default function NotFound() {
  return (
    <div className="card error-state">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address. It may have been moved, or the link is mistyped.</p>
      <Link href="/" className="button">
        Explore claims
      </Link>
    </div>
  );
}
