package tool

import "context"

// Confinement is what the kernel confined one call with (docs/decisions/0012-kernel-sandbox.md): it travels from the Bash
// tool in its Result to the call's span, log line and activity record, so an audit shows which
// calls ran sandboxed and under which policy.
type Confinement struct {
	// Enforced is false when the sandbox could not be applied (mode auto on a kernel without
	// Landlock or user namespaces); Reason then says what is missing.
	Enforced bool
	// ABI is the kernel's Landlock ABI version (0 without Landlock).
	ABI int
	// Policy is the variant whose policy applied: read, write or destructive.
	Policy string
	// Network is false when the call had no network.
	Network bool
	Reason  string
}

type variantKey struct{}

// WithVariant returns ctx carrying the variant a call was judged as, so a provider whose power
// follows the variant (Bash under the sandbox) can apply the matching policy.
func WithVariant(ctx context.Context, v Variant) context.Context {
	return context.WithValue(ctx, variantKey{}, v)
}

// VariantFrom is the variant WithVariant stored, "" when none.
func VariantFrom(ctx context.Context) Variant {
	v, _ := ctx.Value(variantKey{}).(Variant)
	return v
}
