// Command shortlink serves a tiny URL shortener backed by a JSON file.
//
// The link table is small (a few thousand entries at most) and changes
// rarely, so it lives in memory and is written back to disk on every
// change. An append-only audit log records who created or deleted what.
package main

import (
	"encoding/json"
	"errors"
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

func loadConfig(path string) (Config, error) {
	cfg := defaultConfig()
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return cfg, nil
		}
		return cfg, fmt.Errorf("read config %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("parse config %s: %w", path, err)
	}
	return cfg, nil
}

func applyEnv(cfg *Config) error {
	if v := os.Getenv("SHORTLINK_LISTEN"); v != "" {
		cfg.Listen = v
	}
	if v := os.Getenv("SHORTLINK_MAX_LINKS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("SHORTLINK_MAX_LINKS: %w", err)
		}
		cfg.MaxLinks = n
	}
	if v := os.Getenv("SHORTLINK_READ_TIMEOUT_S"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("SHORTLINK_READ_TIMEOUT_S: %w", err)
		}
		cfg.ReadTimeoutS = n
	}
	return nil
}

// errConflict marks a request the store refuses, as opposed to a failure
// to save it.
var errConflict = errors.New("conflict")

// Store holds the link table. All methods are safe for concurrent use.
type Store struct {
	mu    sync.RWMutex
	path  string
	max   int
	links map[string]string
}

func openStore(path string, max int) (*Store, error) {
	s := &Store{path: path, max: max, links: map[string]string{}}
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return s, nil
		}
		return nil, fmt.Errorf("read store: %w", err)
	}
	if err := json.Unmarshal(data, &s.links); err != nil {
		return nil, fmt.Errorf("parse store: %w", err)
	}
	return s, nil
}

// save writes the table to a temporary file and renames it over the old
// one, so a crash mid-write never leaves a truncated store behind.
func (s *Store) save() error {
	data, err := json.MarshalIndent(s.links, "", "  ")
	if err != nil {
		return fmt.Errorf("encode store: %w", err)
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("write store: %w", err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace store: %w", err)
	}
	return nil
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
		return fmt.Errorf("%w: code %q is taken", errConflict, code)
	}
	if len(s.links) >= s.max {
		return fmt.Errorf("%w: store is full (%d links)", errConflict, s.max)
	}
	s.links[code] = target
	if err := s.save(); err != nil {
		delete(s.links, code)
		return err
	}
	return nil
}

func (s *Store) Delete(code string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	target, ok := s.links[code]
	if !ok {
		return false, nil
	}
	delete(s.links, code)
	if err := s.save(); err != nil {
		s.links[code] = target
		return false, err
	}
	return true, nil
}

type auditLog struct {
	mu   sync.Mutex
	file *os.File
}

func openAuditLog(path string) (*auditLog, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return &auditLog{file: f}, nil
}

func (a *auditLog) record(who, action, code string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	line := fmt.Sprintf("%s %s %s %s\n", time.Now().UTC().Format(time.RFC3339), who, action, code)
	if _, err := a.file.WriteString(line); err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
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
				status := http.StatusInternalServerError
				if errors.Is(err, errConflict) {
					status = http.StatusConflict
				}
				http.Error(w, err.Error(), status)
				return
			}
			if err := audit.record(r.RemoteAddr, "put", code); err != nil {
				log.Printf("audit: %v", err)
			}
			w.WriteHeader(http.StatusCreated)
		case http.MethodDelete:
			deleted, err := store.Delete(code)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			if !deleted {
				http.NotFound(w, r)
				return
			}
			if err := audit.record(r.RemoteAddr, "delete", code); err != nil {
				log.Printf("audit: %v", err)
			}
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
	cfg, err := loadConfig(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := applyEnv(&cfg); err != nil {
		log.Fatal(err)
	}
	store, err := openStore(cfg.StorePath, cfg.MaxLinks)
	if err != nil {
		log.Fatal(err)
	}
	audit, err := openAuditLog(cfg.AuditPath)
	if err != nil {
		log.Fatal(err)
	}

	srv := &http.Server{
		Addr:        cfg.Listen,
		Handler:     handler(store, audit),
		ReadTimeout: time.Duration(cfg.ReadTimeoutS) * time.Second,
	}
	log.Printf("listening on %s with %d links", cfg.Listen, len(store.links))
	log.Fatal(srv.ListenAndServe())
}
