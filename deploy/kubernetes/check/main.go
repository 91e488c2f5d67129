// Command check starts a Kubernetes API server on loopback and dry-runs
// arena's manifests against it, as `make kube` does: kine (an etcd API
// over SQLite, as k3s runs it) and kube-apiserver, both built from the
// module proxy, on ports of 127.0.0.1 only; each manifest is sent with
// dryRun=All, so that the server validates and admits it without
// keeping it, and a manifest broken on purpose must be refused, so that
// validation is known to have run.
//
//	check -kine BIN -apiserver BIN MANIFEST...
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"sigs.k8s.io/yaml"
)

func main() {
	kine := flag.String("kine", "", "the kine binary")
	apiserver := flag.String("apiserver", "", "the kube-apiserver binary")
	flag.Parse()
	if err := run(*kine, *apiserver, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "check:", err)
		os.Exit(1)
	}
}

func run(kine, apiserver string, manifests []string) error {
	if kine == "" || apiserver == "" || len(manifests) == 0 {
		return errors.New("usage: check -kine BIN -apiserver BIN MANIFEST...")
	}
	dir, err := os.MkdirTemp("", "arena-kube-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	etcdPort, apiPort := freePort(), freePort()
	stopKine, err := start(dir, "kine", kine, "--listen-address", "127.0.0.1:"+etcdPort, "--metrics-bind-address", "0",
		"--endpoint", "sqlite://"+filepath.Join(dir, "state.db")+"?_journal=WAL&cache=shared")
	if err != nil {
		return err
	}
	defer stopKine()
	key := filepath.Join(dir, "sa.key")
	if err := writeKey(key); err != nil {
		return err
	}
	token := randomHex(16)
	os.WriteFile(filepath.Join(dir, "tokens.csv"), []byte(token+",arena,arena,system:masters\n"), 0o600)
	stopAPI, err := start(dir, "kube-apiserver", apiserver,
		"--etcd-servers", "http://127.0.0.1:"+etcdPort,
		"--bind-address", "127.0.0.1", "--secure-port", apiPort, "--cert-dir", filepath.Join(dir, "certs"),
		"--authorization-mode", "AlwaysAllow", "--token-auth-file", filepath.Join(dir, "tokens.csv"),
		"--service-account-issuer", "https://kubernetes.default.svc", "--service-account-key-file", key,
		"--service-account-signing-key-file", key, "--service-cluster-ip-range", "10.96.0.0/24",
		"--storage-backend", "etcd3", "--disable-admission-plugins", "ServiceAccount")
	if err != nil {
		return err
	}
	defer stopAPI()
	c := &client{base: "https://127.0.0.1:" + apiPort, token: token,
		http: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}}
	if err := c.waitReady(5 * time.Minute); err != nil {
		return err
	}
	for _, m := range manifests {
		if err := c.dryRun(m); err != nil {
			return err
		}
	}
	return nil
}

// start runs a server, its output in dir, and returns how to stop it.
func start(dir, name, bin string, args ...string) (func(), error) {
	out, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	fmt.Printf("started %s (pid %d), its log in %s\n", name, cmd.Process.Pid, out.Name())
	return func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		out.Close()
	}, nil
}

type client struct {
	base, token string
	http        *http.Client
}

func (c *client) do(method, path string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b, err
}

// waitReady waits until the server says it is ready.
func (c *client) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		code, body, err := c.do("GET", "/readyz", nil)
		if err == nil && code == 200 {
			fmt.Println("kube-apiserver is ready")
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kube-apiserver not ready within %s: %v %d %s", limit, err, code, body)
		}
		time.Sleep(time.Second)
	}
}

// dryRun sends each document of a manifest file to the server with
// dryRun=All and fails unless the server accepts it.
func (c *client) dryRun(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	for i, doc := range strings.Split(string(data), "\n---") {
		if strings.TrimSpace(strings.TrimPrefix(doc, "---")) == "" {
			continue
		}
		obj, path, err := resource(doc)
		if err != nil {
			return fmt.Errorf("%s: document %d: %v", file, i+1, err)
		}
		code, body, err := c.do("POST", path+"?dryRun=All&fieldValidation=Strict", obj)
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		if code != http.StatusCreated {
			return fmt.Errorf("%s: document %d refused (%d): %s", file, i+1, code, body)
		}
		fmt.Printf("%s: document %d: accepted (dry run)\n", file, i+1)
		// The same document broken on purpose must be refused: a field
		// that does not exist in the kind.
		var m map[string]any
		json.Unmarshal(obj, &m)
		if spec, ok := m["spec"].(map[string]any); ok {
			spec["noSuchField"] = 1
			broken, _ := json.Marshal(m)
			if code, _, _ := c.do("POST", path+"?dryRun=All&fieldValidation=Strict", broken); code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
				return fmt.Errorf("%s: document %d with an unknown field was not refused (%d): validation did not run", file, i+1, code)
			}
			fmt.Printf("%s: document %d with a field its kind lacks: refused, as it must be\n", file, i+1)
		}
	}
	return nil
}

// resource turns a YAML document into JSON and the path it is created at
// in the default namespace.
func resource(doc string) ([]byte, string, error) {
	obj, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return nil, "", err
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(obj, &head); err != nil {
		return nil, "", err
	}
	plural := map[string]string{"Job": "jobs", "PersistentVolumeClaim": "persistentvolumeclaims", "Deployment": "deployments", "Service": "services"}[head.Kind]
	if plural == "" {
		return nil, "", fmt.Errorf("kind %q: the check knows Job, PersistentVolumeClaim, Deployment and Service", head.Kind)
	}
	prefix := "/apis/" + head.APIVersion
	if !strings.Contains(head.APIVersion, "/") {
		prefix = "/api/" + head.APIVersion
	}
	return obj, prefix + "/namespaces/default/" + plural, nil
}

func writeKey(path string) error {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	b := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	return os.WriteFile(path, b, 0o600)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort is a port of 127.0.0.1 that nothing listens on, for a moment.
func freePort() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}
