// Command shortlink serves a tiny URL shortener backed by a JSON file.
//
// The link table is small (a few thousand entries at most) and changes
// rarely, so it lives in memory and is written back to disk on every
// change. An append-only audit log records who created or deleted what.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config is read from a JSON file and may be overridden by environment
// variables prefixed with SHORTLINK_.
type Config struct {
	Listen       string `json:"listen"`
	StorePath    string `json:"store_path"`
	AuditPath    string `json:"audit_path"`
	MaxLinks     int    `json:"max_links"`
	ReadTimeoutS int    `json:"read_timeout_s"`
}

func defaultConfig() Config {
	return Config{
		Listen:       ":8080",
		StorePath:    "links.json",
		AuditPath:    "audit.log",
		MaxLinks:     5000,
		ReadTimeoutS: 5,
	}
}

func loadConfig(path string) Config {
	cfg := defaultConfig()
	data, _ := os.ReadFile(path)
	json.Unmarshal(data, &cfg)
	return cfg
}

func applyEnv(cfg *Config) {
	if v := os.Getenv("SHORTLINK_LISTEN"); v != "" {
		cfg.Listen = v
	}
	if v := os.Getenv("SHORTLINK_MAX_LINKS"); v != "" {
		n, _ := strconv.Atoi(v)
		cfg.MaxLinks = n
	}
	if v := os.Getenv("SHORTLINK_READ_TIMEOUT_S"); v != "" {
		n, _ := strconv.Atoi(v)
		cfg.ReadTimeoutS = n
	}
}

// Store holds the link table. All methods are safe for concurrent use.
type Store struct {
	mu    sync.RWMutex
	path  string
	max   int
	links map[string]string
}

func openStore(path string, max int) *Store {
	s := &Store{path: path, max: max, links: map[string]string{}}
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return s
		}
		log.Fatalf("read store: %v", err)
	}
	if err := json.Unmarshal(data, &s.links); err != nil {
		log.Fatalf("parse store: %v", err)
	}
	return s
}

// save writes the table to a temporary file and renames it over the old
// one, so a crash mid-write never leaves a truncated store behind.
func (s *Store) save() {
	data, _ := json.MarshalIndent(s.links, "", "  ")
	tmp := s.path + ".tmp"
	os.WriteFile(tmp, data, 0o644)
	os.Rename(tmp, s.path)
}

func (s *Store) Get(code string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	target, ok := s.links[code]
	return target, ok
}

func (s *Store) Put(code, target string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.links[code]; exists {
		return fmt.Errorf("code %q is taken", code)
	}
	if len(s.links) >= s.max {
		return fmt.Errorf("store is full (%d links)", s.max)
	}
	s.links[code] = target
	s.save()
	return nil
}

func (s *Store) Delete(code string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.links[code]; !ok {
		return false
	}
	delete(s.links, code)
	s.save()
	return true
}

type auditLog struct {
	mu   sync.Mutex
	file *os.File
}

func openAuditLog(path string) *auditLog {
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	return &auditLog{file: f}
}

func (a *auditLog) record(who, action, code string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	line := fmt.Sprintf("%s %s %s %s\n", time.Now().UTC().Format(time.RFC3339), who, action, code)
	a.file.WriteString(line)
}

func validCode(code string) bool {
	if len(code) < 3 || len(code) > 32 {
		return false
	}
	for _, r := range code {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func handler(store *Store, audit *auditLog) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		code := strings.TrimPrefix(r.URL.Path, "/")
		switch r.Method {
		case http.MethodGet:
			target, ok := store.Get(code)
			if !ok {
				http.NotFound(w, r)
				return
			}
			http.Redirect(w, r, target, http.StatusFound)
		case http.MethodPut:
			target := r.FormValue("target")
			if !validCode(code) || !strings.HasPrefix(target, "https://") {
				http.Error(w, "bad code or target", http.StatusBadRequest)
				return
			}
			if err := store.Put(code, target); err != nil {
				http.Error(w, err.Error(), http.StatusConflict)
				return
			}
			audit.record(r.RemoteAddr, "put", code)
			w.WriteHeader(http.StatusCreated)
		case http.MethodDelete:
			if !store.Delete(code) {
				http.NotFound(w, r)
				return
			}
			audit.record(r.RemoteAddr, "delete", code)
			w.WriteHeader(http.StatusNoContent)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	}
}

func main() {
	path := "shortlink.json"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	cfg := loadConfig(path)
	applyEnv(&cfg)
	store := openStore(cfg.StorePath, cfg.MaxLinks)
	audit := openAuditLog(cfg.AuditPath)

	srv := &http.Server{
		Addr:        cfg.Listen,
		Handler:     handler(store, audit),
		ReadTimeout: time.Duration(cfg.ReadTimeoutS) * time.Second,
	}
	log.Printf("listening on %s with %d links", cfg.Listen, len(store.links))
	log.Fatal(srv.ListenAndServe())
}
