// Package kubernetes_test decodes the manifests of examples/kubernetes strictly into the
// Kubernetes API types (k8s.io/api): a misspelt or misplaced field fails, as kubectl's strict
// field validation would. It checks what the example promises (an Indexed Job with one pod per
// item, the workspace and runs on the PersistentVolumeClaim, the key from the Secret, traces to
// a collector, --resume-if-interrupted) and that the workflow in the ConfigMap validates.
package kubernetes_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/awf-dev/awf/tests/testkit"
)

// objects are the example's manifests by kind.
type objects struct {
	job     batchv1.Job
	pvc     corev1.PersistentVolumeClaim
	secret  corev1.Secret
	config  corev1.ConfigMap
	decoded map[string]int
}

// strict decodes one manifest's JSON into v, refusing unknown fields.
func strict(doc []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// toJSON turns one YAML document into JSON, as kubectl does before decoding.
func toJSON(node *yaml.Node) ([]byte, string, error) {
	var v any
	if err := node.Decode(&v); err != nil {
		return nil, "", err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, "", err
	}
	var head struct{ APIVersion, Kind string }
	_ = json.Unmarshal(b, &head)
	return b, head.APIVersion + "/" + head.Kind, nil
}

func decodeDir(t *testing.T, dir string) (*objects, error) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	o := &objects{decoded: map[string]int{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var node yaml.Node
			if err := dec.Decode(&node); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, err
			}
			doc, kind, err := toJSON(&node)
			if err != nil {
				return nil, err
			}
			var target any
			switch kind {
			case "batch/v1/Job":
				target = &o.job
			case "v1/PersistentVolumeClaim":
				target = &o.pvc
			case "v1/Secret":
				target = &o.secret
			case "v1/ConfigMap":
				target = &o.config
			default:
				return nil, errors.New(filepath.Base(f) + ": unexpected kind " + kind)
			}
			if err := strict(doc, target); err != nil {
				return nil, errors.New(filepath.Base(f) + ": " + err.Error())
			}
			o.decoded[kind]++
		}
	}
	return o, nil
}

func TestManifestsDecodeStrictly(t *testing.T) {
	o, err := decodeDir(t, filepath.Join(testkit.RepoRoot(), "examples", "kubernetes"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"batch/v1/Job", "v1/PersistentVolumeClaim", "v1/Secret", "v1/ConfigMap"} {
		if o.decoded[k] != 1 {
			t.Fatalf("want one %s, got %v", k, o.decoded)
		}
	}
	job := o.job.Spec
	items := strings.Fields(o.config.Data["items.txt"])
	if job.CompletionMode == nil || *job.CompletionMode != batchv1.IndexedCompletion || job.Completions == nil || int(*job.Completions) != len(items) || job.Parallelism == nil {
		t.Fatalf("want an Indexed Job with one completion per item (%d): %+v", len(items), job)
	}
	if job.PodReplacementPolicy == nil || *job.PodReplacementPolicy != batchv1.Failed {
		t.Fatal("the replacement pod must start only once the old one is gone (podReplacementPolicy: Failed)")
	}
	pod := job.Template.Spec
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Fatal("the pod must run as non-root")
	}
	c := pod.Containers[0]
	if !strings.Contains(strings.Join(c.Args, " "), "--resume-if-interrupted") {
		t.Fatalf("the container does not resume interrupted runs: %q", c.Args)
	}
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	key := env["OPENAI_API_KEY"].ValueFrom
	if key == nil || key.SecretKeyRef == nil || key.SecretKeyRef.Name != o.secret.Name || o.secret.StringData[key.SecretKeyRef.Key] == "" {
		t.Fatalf("the key must come from the Secret %s: %+v", o.secret.Name, env["OPENAI_API_KEY"])
	}
	if !strings.HasPrefix(env["OTEL_EXPORTER_OTLP_ENDPOINT"].Value, "http") {
		t.Fatal("no OTEL_EXPORTER_OTLP_ENDPOINT to a collector")
	}
	idx := env["ITEM_INDEX"].ValueFrom
	if idx == nil || idx.FieldRef == nil || !strings.Contains(idx.FieldRef.FieldPath, "job-completion-index") {
		t.Fatalf("ITEM_INDEX must be the pod's completion index: %+v", env["ITEM_INDEX"])
	}
	var onPVC bool
	for _, v := range pod.Volumes {
		if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == o.pvc.Name {
			for _, m := range c.VolumeMounts {
				onPVC = onPVC || (m.Name == v.Name && m.MountPath == "/workspace" && strings.Contains(m.SubPathExpr, "$(ITEM_INDEX)"))
			}
		}
	}
	if !onPVC {
		t.Fatal("each item's /workspace (and so .awf/runs) must be its own directory of the PersistentVolumeClaim")
	}
}

// TestStrictDecodingCatchesAMistake: the same decoding rejects a misplaced field, or the test
// above would pass whatever the files say.
func TestStrictDecodingCatchesAMistake(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join(testkit.RepoRoot(), "examples", "kubernetes", "job.yaml"))
	bad := strings.Replace(string(src), "  parallelism: 3", "  paralellism: 3", 1)
	if bad == string(src) {
		t.Fatal("job.yaml has no parallelism line to misspell")
	}
	_ = os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(bad), 0o644)
	if _, err := decodeDir(t, dir); err == nil || !strings.Contains(err.Error(), "paralellism") {
		t.Fatalf("a misspelt field was accepted: %v", err)
	}
}

// TestTheConfigMapsWorkflowValidates runs `awf validate` on the workflow the ConfigMap holds.
func TestTheConfigMapsWorkflowValidates(t *testing.T) {
	o, err := decodeDir(t, filepath.Join(testkit.RepoRoot(), "examples", "kubernetes"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, ".awf", "workflows", "review.yaml")
	_ = os.MkdirAll(filepath.Dir(wf), 0o755)
	if err := os.WriteFile(wf, []byte(o.config.Data["review.yaml"]), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "awf")
	if err := testkit.GoBuild(bin, "./cmd/awf"); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "validate", "review")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("awf validate: %v\n%s", err, out)
	}
}
