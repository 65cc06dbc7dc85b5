#include "tools/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace cnnx::tools {

namespace {

constexpr int kWidth = 30;
constexpr auto kRedraw = std::chrono::milliseconds(100);

std::string minutes_seconds(double seconds) {
  const long s = long(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

}  // namespace

ProgressBar::ProgressBar(size_t total)
    : total_(total), enabled_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()),
      last_draw_(start_ - kRedraw) {}

double ProgressBar::rate() const {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return seconds > 0 ? double(done_) / seconds : 0;
}

void ProgressBar::advance(size_t n) {
  done_ += n;
  if (enabled_ && std::chrono::steady_clock::now() - last_draw_ >= kRedraw) draw();
}

void ProgressBar::finish() {
  if (!enabled_ || total_ == 0) return;
  draw();
  std::fputc('\n', stderr);
}

void ProgressBar::draw() {
  last_draw_ = std::chrono::steady_clock::now();
  const int filled = total_ ? int(double(kWidth) * double(std::min(done_, total_)) / double(total_)) : kWidth;
  const double per_second = rate();
  const std::string eta = per_second > 0 ? minutes_seconds(double(total_ - std::min(done_, total_)) / per_second) : "?";
  std::fprintf(stderr, "\r[%s%s]  %zu/%zu  %.1f img/s  ETA %s   ", std::string(size_t(filled), '#').c_str(),
               std::string(size_t(kWidth - filled), '-').c_str(), done_, total_, per_second, eta.c_str());
  std::fflush(stderr);
}

}  // namespace cnnx::tools
