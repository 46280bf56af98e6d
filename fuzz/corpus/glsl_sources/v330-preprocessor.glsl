	#define SQR(x) ((x) * (x))
#if defined(SQR) && __VERSION__ >= 330
out vec4 c;
void main() { c = vec4(SQR(0.5)); }
#else
#error no
#endif
