import Link from "next/link";

export default function ClaimNotFound() {
  return (
    <div className="card error-state">
      <h1>Claim not found</h1>
      <p className="muted">This claim does not exist. The link may be mistyped.</p>
      <div className="form-actions" style={{ justifyContent: "center" }}>
        <Link href="/" className="button">
          Explore claims
        </Link>
        <Link href="/claims/new" className="button button--secondary">
          Submit a claim
        </Link>
      </div>
    </div>
  );
}
